/**
 * The generated world's users (docs/recommend.md, "Measuring recommendations"): each belongs to
 * one of a few taste groups (so films are watched together, as on a real instance) and has hidden
 * tastes over genres, keywords, directors and decades, the group's plus their own. They watch
 * what is popular and what they like, with noise, rate most of it from how much they like it,
 * with noise, and dismiss a few popular films they would dislike.
 */
import type { Random } from "./random.ts";
import type { EvalUser, Watch } from "./types.ts";
import type { WorldMovie } from "./world_movies.ts";
import { GENRES } from "./world_names.ts";

/** A hidden taste: what the user likes, never written anywhere the recommenders can read. */
interface Taste {
  genres: Map<string, number>;
  keywords: Set<string>;
  directors: Set<string>;
  decade: number;
}

const FIRST_DAY = Date.parse("2022-01-01T00:00:00Z");
const LAST_DAY = Date.parse("2026-11-30T00:00:00Z");
const DAY_MS = 86_400_000;

function groupTaste(random: Random, movies: WorldMovie[]): Taste {
  const genres = new Map<string, number>(GENRES.map((g) => [g.name, random.normal() * 0.3]));
  for (const g of random.sample(GENRES, 3)) genres.set(g.name, 1 + random.next());
  for (const g of random.sample(GENRES, 2)) {
    if ((genres.get(g.name) ?? 0) < 1) genres.set(g.name, -1.5 - random.next());
  }
  const liked = movies.filter((m) => m.genres.some((g) => (genres.get(g) ?? 0) >= 1));
  return {
    genres,
    keywords: new Set(random.sample(liked.flatMap((m) => m.keywords), 10)),
    directors: new Set(random.sample(liked.flatMap((m) => m.directors), 6)),
    decade: random.pick([1970, 1980, 1990, 2000, 2010, 2010, 2020, 2020]),
  };
}

function ownTaste(random: Random, group: Taste, movies: WorldMovie[]): Taste {
  const genres = new Map([...group.genres].map(([g, w]) => [g, w + random.normal() * 0.4]));
  const keywords = new Set(group.keywords);
  for (const k of random.sample(random.sample(movies, 20).flatMap((m) => m.keywords), 4)) {
    keywords.add(k);
  }
  const directors = new Set(random.sample([...group.directors], 4));
  for (const m of random.sample(movies, 2)) directors.add(m.directors[0]);
  return { genres, keywords, directors, decade: group.decade + 10 * random.int(-1, 1) };
}

/** How much `taste` likes `movie`: genres, shared keywords, a loved director, its decade, quality. */
function affinity(taste: Taste, movie: WorldMovie): number {
  let genre = 0;
  for (const g of movie.genres) genre += taste.genres.get(g) ?? 0;
  genre /= Math.sqrt(movie.genres.length);
  const keywords = movie.keywords.filter((k) => taste.keywords.has(k)).length;
  const director = movie.directors.some((d) => taste.directors.has(d)) ? 1.5 : 0;
  const decade = Math.exp(-(((Math.floor(movie.year / 10) * 10 - taste.decade) / 20) ** 2));
  return genre + 0.7 * keywords + director + decade + 0.3 * (movie.voteAverage - 6.4);
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A version-4 shaped UUID from the seeded source, so the same seed names the same users. */
function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}

/** `count` users over `movies`, with histories drawn from their hidden tastes. */
export function generateUsers(random: Random, movies: WorldMovie[], count: number): EvalUser[] {
  const groups = Array.from(
    { length: Math.max(4, Math.round(count / 30)) },
    () => groupTaste(random, movies),
  );
  const logPopularity = movies.map((m) => Math.log(m.popularity + 1));
  const popular = movies.map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.popularity - a.m.popularity)
    .slice(0, Math.max(50, Math.round(movies.length / 10)));
  const users: EvalUser[] = [];
  for (let u = 0; u < count; u++) {
    const taste = ownTaste(random, random.pick(groups), movies);
    const scores = movies.map((m) => affinity(taste, m));
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / scores.length) || 1;
    // Watching: popularity and liking, plus Gumbel noise; the top n are the films watched.
    const n = Math.max(
      12,
      Math.min(400, Math.round(Math.exp(Math.log(70) + random.normal() * 0.6))),
    );
    const keyed = movies.map((_, i) => ({
      i,
      key: 0.6 * logPopularity[i] + 1.1 * (scores[i] - mean) / sd + random.gumbel(),
    }));
    keyed.sort((a, b) => b.key - a.key);
    const seen = keyed.slice(0, Math.min(n, movies.length));
    const start = FIRST_DAY + random.next() * (LAST_DAY - FIRST_DAY) * 0.5;
    const watched: Watch[] = seen.map(({ i }) => {
      const at = start + random.next() * (LAST_DAY - start);
      const z = (scores[i] - mean) / sd;
      return {
        catalogId: movies[i].id,
        rating: random.chance(0.85)
          ? Math.max(1, Math.min(10, Math.round(5.8 + 1.5 * z + random.normal() * 1.1)))
          : null,
        watchedOn: day(at),
        createdAt: new Date(at + random.int(0, 20) * 3_600_000).toISOString(),
      };
    });
    // Dismissals: a few popular films they would dislike, never watched.
    const watchedSet = new Set(seen.map((s) => s.i));
    const disliked = popular.filter(({ i }) => !watchedSet.has(i) && scores[i] < mean - 0.5 * sd);
    const dismissed = random.chance(0.6)
      ? random.sample(disliked, random.int(1, 8)).map(({ m }) => ({
        catalogId: m.id,
        createdAt: new Date(LAST_DAY - random.int(1, 300) * DAY_MS).toISOString(),
      }))
      : [];
    users.push({ id: uuid(random), watched, dismissed, myList: [] });
  }
  return users;
}
