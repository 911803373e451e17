/**
 * The embedded store the recommenders run on: a fresh PGlite store, migrated, holding the world
 * the split left them (docs/recommend.md, "Measuring recommendations"). An instance's own users
 * are copied here too, so nothing of the evaluation is ever written to the instance.
 */
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import { openPgliteStore } from "@/lib/platform/store/pglite.ts";
import type { EvalData } from "./types.ts";

const BATCH = 2_000;

/** A migrated in-memory embedded store. */
export async function openEvalStore(): Promise<Store> {
  // Loading tens of thousands of rows is one long write: no request is waiting behind it.
  const store = await openPgliteStore({ timeoutMs: 600_000 });
  await migrate(store, await readMigrations());
  return store;
}

/** The columns of `public.movies` a row may set (generated ones are computed by the store). */
export async function movieColumns(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = 'public' and table_name = 'movies' and is_generated = 'NEVER'
      order by ordinal_position`,
  );
  return rows.map((r) => r.column_name);
}

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await write(rows.slice(start, start + BATCH));
  }
}

/** Writes `data` into `store`: movies (the columns both have), users, histories, dismissals, My List. */
export async function loadWorld(store: Store, data: EvalData): Promise<void> {
  const keys = new Set(data.movies.flatMap((m) => Object.keys(m)));
  const columns = (await movieColumns(store)).filter((c) => keys.has(c));
  const list = columns.map((c) => `"${c}"`).join(", ");
  await inBatches(data.movies, (batch) =>
    store.query(
      `insert into public.movies (${list})
       select ${list} from json_populate_recordset(null::public.movies, $1::json)`,
      [JSON.stringify(batch)],
    ));
  await inBatches(data.users, (batch) =>
    store.query(
      `insert into auth.users (id, aud, role, email, created_at, updated_at)
       select id, 'authenticated', 'authenticated', 'eval-' || ord || '@example.invalid', now(), now()
         from unnest($1::uuid[]) with ordinality as u(id, ord)`,
      [batch.map((u) => u.id)],
    ));
  const watched = data.users.flatMap((u) =>
    u.watched.map((w) => ({
      user_id: u.id,
      catalog_id: w.catalogId,
      rating: w.rating,
      watched_on: w.watchedOn,
      created_at: w.createdAt,
    }))
  );
  // The watched list's triggers keep the diary's and the year in review's figures, which no
  // recommender reads; the evaluation store skips them while it loads (3-4 times faster).
  await store.exec("alter table public.user_watched_movies disable trigger user");
  await inBatches(watched, (batch) =>
    store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, rating, watched_on, created_at)
       select user_id, catalog_id, rating, watched_on, created_at
         from json_to_recordset($1::json)
           as x(user_id uuid, catalog_id integer, rating smallint, watched_on date,
                created_at timestamptz)`,
      [JSON.stringify(batch)],
    ));
  await store.exec("alter table public.user_watched_movies enable trigger user");
  const dismissed = data.users.flatMap((u) =>
    u.dismissed.map((d) => ({ user_id: u.id, catalog_id: d.catalogId, created_at: d.createdAt }))
  );
  await inBatches(dismissed, (batch) =>
    store.query(
      `insert into public.user_dismissed_movies (user_id, catalog_id, created_at)
       select user_id, catalog_id, created_at
         from json_to_recordset($1::json) as x(user_id uuid, catalog_id integer, created_at timestamptz)`,
      [JSON.stringify(batch)],
    ));
  const lists = data.users.filter((u) => u.myList.length > 0);
  await inBatches(lists, (batch) =>
    store.query(
      `insert into public.user_my_list (user_id, catalog_ids)
       select user_id, catalog_ids
         from json_to_recordset($1::json) as x(user_id uuid, catalog_ids integer[])`,
      [JSON.stringify(batch.map((u) => ({ user_id: u.id, catalog_ids: u.myList })))],
    ));
  const feedback = data.users.flatMap((u) =>
    (u.feedback ?? []).map((f) => ({
      user_id: u.id,
      catalog_id: f.catalogId,
      value: f.value,
      created_at: f.createdAt,
    }))
  );
  await inBatches(feedback, (batch) =>
    store.query(
      `insert into public.recommend_feedback (user_id, catalog_id, value, created_at)
       select user_id, catalog_id, value, created_at
         from json_to_recordset($1::json)
           as x(user_id uuid, catalog_id integer, value smallint, created_at timestamptz)`,
      [JSON.stringify(batch)],
    ));
  await store.exec("analyze");
}
