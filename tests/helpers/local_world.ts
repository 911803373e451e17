/**
 * The designed world of the local recommender's tests (docs/recommend.md, "Local picks"): a
 * Michael Mann cluster (director, heist keywords, Los Angeles), a three-film collection, a
 * romantic-comedy cluster the user dislikes, and popular filler films that share nothing.
 */
import type { Store } from "@/lib/platform/store/mod.ts";
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import { type Engine, TEST_DATABASE_URL, testStore } from "./store.ts";
import { postgresTemplateName, TEST_RUN_ID, withDatabase } from "./store_templates.ts";

/**
 * A store whose films and watched lists are this world's alone: the model reads every stored
 * film and every user's watched list, and on PostgreSQL a file's tests share a database (run
 * alone, the server's own, which other files use at the same time). So on PostgreSQL each world
 * gets a database of its own (copied from the run's template under `deno task test`, else
 * created and migrated), dropped with the store.
 */
export async function worldStore(engine: Engine): Promise<Store & AsyncDisposable> {
  if (engine === "embedded") return await testStore("embedded");
  const server = TEST_DATABASE_URL!;
  // Creating a database from a template waits for the server's checkpoint: on a busy server
  // longer than a request's 5 s deadline.
  const admin = openPostgresStore(server, { max: 1, timeoutMs: 120_000 });
  const name = TEST_RUN_ID
    ? `${postgresTemplateName(server, TEST_RUN_ID)}_${crypto.randomUUID().slice(0, 8)}`
    : `movies_local_world_${crypto.randomUUID().slice(0, 8)}`;
  await admin.query(
    TEST_RUN_ID
      ? `create database ${name} template ${postgresTemplateName(server, TEST_RUN_ID)}`
      : `create database ${name}`,
  );
  const store = openPostgresStore(withDatabase(server, name), { max: 10 });
  if (!TEST_RUN_ID) await migrate(store, await readMigrations());
  return Object.assign(store, {
    async [Symbol.asyncDispose]() {
      await store.close();
      // Dropping waits for the server to end the database's connections: past the store bound.
      await admin.query(`set statement_timeout = 0`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  });
}

/** A movie with the features the model reads. */
export interface FeatureMovie {
  id: number;
  title: string;
  year: number;
  genres: string[];
  keywords?: string[];
  directors?: string[];
  actors?: string[];
  collection?: [number, string];
  language?: string;
  runtime?: number;
  popularity?: number;
  voteAverage?: number;
  voteCount?: number;
}

/** The world's films by name. */
export const F = {
  heat: 1001,
  thief: 1002,
  collateral: 1003,
  miamiVice: 1004,
  oceans11: 1011,
  oceans12: 1012,
  oceans13: 1013,
  wedding1: 1021,
  wedding2: 1022,
  wedding3: 1023,
  korean: 1031,
} as const;

const MANN = ["Michael Mann"];

/** The world's movies; fillers 1101.. are the most popular and share no feature with anything. */
export function worldMovies(fillers = 10): FeatureMovie[] {
  const movies: FeatureMovie[] = [
    {
      id: F.heat,
      title: "Heat",
      year: 1995,
      genres: ["Crime", "Thriller"],
      keywords: ["heist", "los angeles", "bank robbery"],
      directors: MANN,
      actors: ["Al Pacino", "Robert De Niro"],
      language: "en",
      runtime: 170,
    },
    {
      id: F.thief,
      title: "Thief",
      year: 1981,
      genres: ["Crime", "Thriller"],
      keywords: ["heist", "safecracker"],
      directors: MANN,
      actors: ["James Caan"],
      language: "en",
      runtime: 123,
    },
    {
      id: F.collateral,
      title: "Collateral",
      year: 2004,
      genres: ["Crime", "Thriller"],
      keywords: ["los angeles", "hitman"],
      directors: MANN,
      actors: ["Tom Cruise"],
      language: "en",
      runtime: 120,
    },
    {
      id: F.miamiVice,
      title: "Miami Vice",
      year: 2006,
      genres: ["Crime", "Action"],
      keywords: ["undercover"],
      directors: MANN,
      actors: ["Colin Farrell"],
      language: "en",
      runtime: 134,
    },
    ...([[F.oceans11, "Ocean's Eleven", 2001], [F.oceans12, "Ocean's Twelve", 2004], [
      F.oceans13,
      "Ocean's Thirteen",
      2007,
    ]] as const).map(([id, title, year]) => ({
      id,
      title,
      year,
      genres: ["Crime", "Comedy"],
      keywords: ["heist", "casino"],
      directors: ["Steven Soderbergh"],
      actors: ["George Clooney", "Brad Pitt"],
      collection: [304, "Ocean's Collection"] as [number, string],
      language: "en",
      runtime: 116,
    })),
    ...([[F.wedding1, "Wedding One"], [F.wedding2, "Wedding Two"], [
      F.wedding3,
      "Wedding Three",
    ]] as const)
      .map(([id, title]) => ({
        id,
        title,
        year: 2010,
        genres: ["Romance", "Comedy"],
        keywords: ["wedding", "bride"],
        directors: ["Nancy Meyers"],
        actors: ["Kate Hudson"],
        language: "en",
        runtime: 100,
      })),
    {
      id: F.korean,
      title: "Seoul Heist",
      year: 2012,
      genres: ["Crime", "Thriller"],
      keywords: ["heist"],
      directors: ["Choi Dong-hoon"],
      actors: ["Kim Yoon-seok"],
      language: "ko",
      runtime: 135,
    },
  ];
  for (let i = 1; i <= fillers; i++) {
    movies.push({
      id: 1100 + i,
      title: `Popular ${i}`,
      year: 1950 + i,
      genres: ["Animation"],
      keywords: [`filler ${i}`],
      directors: [`Director ${i}`],
      actors: [`Actor ${i}`],
      language: "fr",
      runtime: 80 + i,
      popularity: 1000 - i,
      voteAverage: 7,
      voteCount: 1000,
    });
  }
  return movies;
}

/** Writes `movies` with their features (one statement). */
export async function seedFeatureMovies(store: Store, movies: FeatureMovie[]): Promise<void> {
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, genres, keywords,
       directors, actors, collection_id, collection_name, original_language, runtime, popularity,
       vote_average, vote_count, has_details)
     select r.id, r.title, r.title, r.year, r.genres, r.keywords, r.directors, r.actors,
            r.collection_id, r.collection_name, r.language, r.runtime, r.popularity,
            r.vote_average, r.vote_count, true
       from jsonb_to_recordset($1::text::jsonb) as r(id integer, title text, year integer,
            genres text[], keywords text[], directors text[], actors text[],
            collection_id integer, collection_name text, language text, runtime integer,
            popularity float8, vote_average float8, vote_count integer)`,
    [JSON.stringify(movies.map((m) => ({
      id: m.id,
      title: m.title,
      year: m.year,
      genres: m.genres,
      keywords: m.keywords ?? [],
      directors: m.directors ?? [],
      actors: m.actors ?? [],
      collection_id: m.collection?.[0] ?? null,
      collection_name: m.collection?.[1] ?? null,
      language: m.language ?? null,
      runtime: m.runtime ?? null,
      popularity: m.popularity ?? 10,
      vote_average: m.voteAverage ?? 6.5,
      vote_count: m.voteCount ?? 100,
    })))],
  );
}

/** Marks films watched by the user with ratings (null: unrated), in the order given. */
export async function rate(
  store: Store,
  userId: string,
  films: [number, number | null][],
): Promise<void> {
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, rating, created_at)
     select $1, u.id, nullif(u.rating, 0), timestamptz '2026-01-01' + u.ord * interval '1 minute'
       from unnest($2::int[], $3::int[]) with ordinality as u(id, rating, ord)
     on conflict (user_id, catalog_id) do update set rating = excluded.rating`,
    [userId, films.map((f) => f[0]), films.map((f) => f[1] ?? 0)],
  );
}
