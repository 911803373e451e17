/**
 * The generated world's movies (docs/recommend.md, "Measuring recommendations"): directors with
 * home genres, signature keywords and a career of two or three decades; films drawn from their
 * director's genres, keywords and decades, a cast mostly from their genres' actors, some in
 * collections (sequels sharing director, genres and keywords), original languages and a long tail
 * of popularity, so the features the recommenders read carry the structure tastes are made of.
 */
import type { Random } from "./random.ts";
import { GENRES, keywordPool, LANGUAGES, personPool, TitleMaker } from "./world_names.ts";

/** A generated film with the features tastes are defined over. */
export interface WorldMovie {
  id: number;
  title: string;
  year: number;
  genres: string[];
  keywords: string[];
  directors: string[];
  actors: string[];
  language: string;
  collection: { id: number; name: string } | null;
  popularity: number;
  voteAverage: number;
  voteCount: number;
  runtime: number;
}

/** A director's habits, which their films inherit. */
interface Director {
  name: string;
  genres: string[];
  keywords: string[];
  firstDecade: number;
  decades: number;
  language: string;
}

const DECADES = [1950, 1960, 1970, 1980, 1990, 2000, 2010, 2020];
// Recent decades hold more of the catalog, as TMDB's does.
const DECADE_WEIGHTS = [0.04, 0.05, 0.07, 0.1, 0.14, 0.18, 0.24, 0.18];

function weighted<T>(random: Random, items: readonly T[], weights: readonly number[]): T {
  let r = random.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < items.length; i++) {
    r -= weights[i];
    if (r < 0) return items[i];
  }
  return items[items.length - 1];
}

/** The keywords, each belonging to one genre (its pool), so a genre's films share themes. */
function keywordsByGenre(keywords: string[]): Map<string, string[]> {
  const pools = new Map<string, string[]>(GENRES.map((g) => [g.name, []]));
  keywords.forEach((k, i) => pools.get(GENRES[i % GENRES.length].name)!.push(k));
  return pools;
}

/** `count` movies with ids 1..count. */
export function generateMovies(random: Random, count: number): WorldMovie[] {
  const keywords = keywordPool(Math.max(120, Math.min(800, Math.round(count / 6))));
  const byGenre = keywordsByGenre(keywords);
  const people = personPool(random, Math.round(count / 6) + Math.round(count / 1.5) + 10);
  const directorNames = people.slice(0, Math.max(10, Math.round(count / 6)));
  const actorNames = people.slice(directorNames.length);
  const genreNames = GENRES.map((g) => g.name);
  const actorsByGenre = new Map<string, string[]>(genreNames.map((g) => [g, []]));
  actorNames.forEach((a) => actorsByGenre.get(random.pick(genreNames))!.push(a));

  const directors: Director[] = directorNames.map((name) => {
    const genres = random.sample(genreNames, random.int(1, 2));
    const pool = genres.flatMap((g) => byGenre.get(g)!);
    return {
      name,
      genres,
      keywords: random.sample(pool, 3),
      firstDecade: weighted(random, DECADES, DECADE_WEIGHTS),
      decades: random.int(1, 3),
      language: weighted(random, LANGUAGES.map((l) => l[0]), LANGUAGES.map((l) => l[1])),
    };
  });

  const titles = new TitleMaker(random);
  const movies: WorldMovie[] = [];
  let collections = 0;
  while (movies.length < count) {
    const director = random.pick(directors);
    const first = film(random, movies.length + 1, { director, byGenre, actorsByGenre, titles });
    movies.push(first);
    // About one film in twenty starts a collection of two to four.
    if (random.chance(0.05) && movies.length < count) {
      const collection = { id: 5000 + ++collections, name: `${first.title} Collection` };
      first.collection = collection;
      const parts = random.int(2, 4);
      for (let n = 2; n <= parts && movies.length < count; n++) {
        const sequel = film(random, movies.length + 1, {
          director,
          byGenre,
          actorsByGenre,
          titles,
        });
        sequel.title = titles.sequel(first.title, n);
        sequel.genres = first.genres;
        sequel.keywords = [...new Set([...first.keywords.slice(0, 4), ...sequel.keywords])].slice(
          0,
          8,
        );
        sequel.actors = [...first.actors.slice(0, 3), ...sequel.actors].slice(0, 6);
        sequel.year = Math.min(2026, first.year + (n - 1) * random.int(2, 4));
        sequel.language = first.language;
        sequel.popularity = first.popularity * (0.5 + random.next() * 0.6);
        sequel.collection = collection;
        movies.push(sequel);
      }
    }
  }
  return movies;
}

function film(
  random: Random,
  id: number,
  world: {
    director: Director;
    byGenre: Map<string, string[]>;
    actorsByGenre: Map<string, string[]>;
    titles: TitleMaker;
  },
): WorldMovie {
  const { director } = world;
  const genreNames = GENRES.map((g) => g.name);
  const genres = [
    ...new Set([
      random.pick(director.genres),
      ...(random.chance(0.6) ? [random.pick(genreNames)] : []),
      ...(random.chance(0.25) ? [random.pick(director.genres)] : []),
    ]),
  ];
  const themed = genres.flatMap((g) => world.byGenre.get(g)!);
  const keywords = [
    ...new Set([
      ...director.keywords.filter(() => random.chance(0.5)),
      ...random.sample(themed, random.int(2, 5)),
      ...random.sample([...world.byGenre.values()].flat(), random.int(0, 2)),
    ]),
  ];
  const cast = genres.flatMap((g) => world.actorsByGenre.get(g)!);
  const actors = random.sample(cast, random.int(5, 8));
  const decade = Math.min(2020, director.firstDecade + 10 * random.int(0, director.decades - 1));
  const year = Math.min(2026, decade + random.int(0, 9));
  // A long tail: most films are little known, a few are everywhere; recent ones a little more so.
  const popularity = Math.exp(random.normal() * 1.1 + (year - 1990) / 60) * 8;
  return {
    id,
    title: world.titles.next(),
    year,
    genres,
    keywords,
    directors: [director.name],
    actors,
    language: random.chance(0.85) ? director.language : random.pick(LANGUAGES)[0],
    collection: null,
    popularity: Math.round(popularity * 1000) / 1000,
    voteAverage: Math.round(Math.max(2, Math.min(9.2, 6.4 + random.normal() * 0.8)) * 10) / 10,
    voteCount: Math.round(popularity * (20 + random.next() * 80)),
    runtime: random.int(78, 170),
  };
}
