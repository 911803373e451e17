/**
 * The databases of `deno task bench many_users` (issue 29, "many users"): one PostgreSQL
 * database with 100,000 users of 100 watched movies each (10 million rows) and one with only
 * the user whose reads are measured, both migrated with the real migrations and seeded by
 * set-based SQL into the real tables. The big one is reused when a complete seed is found
 * there (seeding takes minutes), and resumed batch by batch when one was cut short.
 */
import { migrate, readMigrations } from "../../lib/platform/store/migrate.ts";
import type { Sql, Store } from "../../lib/platform/store/mod.ts";
import { openPostgresStore } from "../../lib/platform/store/postgres.ts";

/** How many users the big database holds, and how many movies each has watched. */
const USERS = 100_000;
const PER_USER = 100;
/** The catalog both databases hold (each user's 100 are spread over it). */
const MOVIES = 10_000;
/** The user whose list is read, the same id, email and rows in both databases. */
export const MEASURED = {
  id: "5b0a7e3c-4d1f-4a8e-9c2b-6e7f80a1b2c3",
  email: "many-users-measured@example.test",
};

// Users are added a thousand at a time (100,000 rows a statement), each batch with one more of
// the measured user's movies: that user's rows end up scattered over the table as a long-time
// user's are (one per batch), while the others' lie together. The measured user's row count is
// the number of batches done, so a cut-short seed resumes where it stopped.
const BATCH = 1_000;
const BATCHES = USERS / BATCH;
// Timeouts of the seeding connection: a batch can take a minute on a loaded machine.
const SEED_TIMEOUT_MS = 30 * 60_000;

// A user number's id: ordered, so each batch appends to the indexes instead of splitting
// pages all over them.
const userId = (n: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

// The k-th movie (0-based) of user n (user 0 is the measured one): 100 distinct movies per user
// (101 * k stays below 10,000), a different hundred for each user.
const movieOf = (n: string, k: string) => `((${n}) * 37 + (${k}) * 101) % ${MOVIES} + 1`;

// The triggers of the year-in-review tables (docs/diary.md) would add two film rows a watched
// row and the totals; the list reads never read them, so the seed skips them (replica role,
// this transaction only) in both databases alike. Foreign keys hold by construction.
const REPLICA = "set local session_replication_role = replica";

const WATCHED_COLUMNS = "user_id, catalog_id, created_at, rating, watched_on";

function watchedRows(id: string, n: string, k: string): string {
  return `${id}, ${movieOf(n, k)}, timestamptz '2020-01-01' + (${k}) * interval '1 day',
    case when (${n} + ${k}) % 3 = 0 then null else 1 + (${n} + ${k}) % 10 end,
    date '2020-01-01' + ((${n}) * 7 + (${k}) * 13) % 2000`;
}

async function seedMovies(tx: Sql): Promise<void> {
  await tx.query(REPLICA);
  await tx.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, overview, has_details)
     select g, 'Film number ' || g, 'Film number ' || g, 1950 + g % 70, 80 + g % 70,
       array['Drama', 'Comedy'], '/poster' || g || '.jpg', repeat('x', 300), true
       from generate_series(1, ${MOVIES}) g
     on conflict (catalog_id) do nothing`,
  );
}

async function seedMeasured(tx: Sql): Promise<void> {
  await tx.query(REPLICA);
  await tx.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1::uuid, 'authenticated', 'authenticated', $2, now(), now())
     on conflict do nothing`,
    [MEASURED.id, MEASURED.email],
  );
}

async function seedBatch(tx: Sql, batch: number): Promise<void> {
  await tx.query(REPLICA);
  const from = batch * BATCH + 1;
  const to = from + BATCH - 1;
  await tx.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     select ${userId("n")}, 'authenticated', 'authenticated', 'many-' || n || '@example.test',
       now(), now()
       from generate_series($1::int, $2::int) n
     on conflict do nothing`,
    [from, to],
  );
  await tx.query(
    `insert into public.user_watched_movies (${WATCHED_COLUMNS})
     select ${watchedRows(userId("n"), "n", "k")}
       from generate_series($1::int, $2::int) n, generate_series(0, ${PER_USER - 1}) k
      order by n, k
     on conflict do nothing`,
    [from, to],
  );
  await tx.query(
    `insert into public.user_watched_movies (${WATCHED_COLUMNS})
     select ${watchedRows("$1::uuid", "0", "$2::int")}
     on conflict do nothing`,
    [MEASURED.id, batch],
  );
}

async function measuredRows(store: Store): Promise<number> {
  const [row] = await store.query<{ n: number }>(
    "select count(*)::int as n from public.user_watched_movies where user_id = $1::uuid",
    [MEASURED.id],
  );
  return row.n;
}

/** `url` with its database name replaced by `name`. */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

/** Creates database `name` on the server of `url` unless it exists; true when it was created. */
export async function ensureDatabase(url: string, name: string): Promise<boolean> {
  const admin = openPostgresStore(databaseUrl(url, "postgres"), { max: 1 });
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.length) return false;
    await admin.query(`create database "${name.replaceAll('"', '""')}"`);
    return true;
  } finally {
    await admin.close();
  }
}

/** Drops database `name` on the server of `url` if it exists. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = openPostgresStore(databaseUrl(url, "postgres"), { max: 1 });
  try {
    await admin.query(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`);
  } finally {
    await admin.close();
  }
}

/**
 * Seeds `url` (migrated first) with the catalog and either every user (`all`) or the measured
 * user alone, then vacuums and analyses what it wrote. Returns what it did, for the report.
 */
export async function seedDatabase(
  url: string,
  options: { all: boolean; log?: (line: string) => void },
): Promise<string> {
  const log = options.log ?? console.log;
  const store = openPostgresStore(url, { max: 1, timeoutMs: SEED_TIMEOUT_MS });
  try {
    await migrate(store, await readMigrations());
    const done = await measuredRows(store);
    const target = options.all ? BATCHES : PER_USER;
    if (done >= target) return `reused (${done} rows of the measured user found)`;
    const start = performance.now();
    await store.transaction(seedMovies);
    await store.transaction(seedMeasured);
    if (options.all) {
      for (let batch = done; batch < BATCHES; batch++) {
        await store.transaction((tx) => seedBatch(tx, batch));
        if (batch % 10 === 9) {
          log(`  seeded ${(batch + 1) * BATCH} users (${elapsed(start)})`);
        }
      }
    } else {
      await store.transaction(async (tx) => {
        await tx.query(REPLICA);
        await tx.query(
          `insert into public.user_watched_movies (${WATCHED_COLUMNS})
           select ${watchedRows("$1::uuid", "0", "k")} from generate_series(0, ${PER_USER - 1}) k
           on conflict do nothing`,
          [MEASURED.id],
        );
      });
    }
    await store.query("vacuum (analyze) public.user_watched_movies, auth.users, public.movies");
    return `${done ? "resumed from batch " + done + ", " : ""}seeded in ${elapsed(start)}`;
  } finally {
    await store.close();
  }
}

const elapsed = (start: number) => `${((performance.now() - start) / 1000).toFixed(0)} s`;

if (import.meta.main) {
  // `deno run -A scripts/load/many_users_seed.ts URL`: seeds the big database alone.
  const url = Deno.args[0];
  const name = new URL(url).pathname.slice(1);
  await ensureDatabase(url, name);
  console.log(await seedDatabase(url, { all: true }));
}
