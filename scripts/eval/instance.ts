/**
 * An instance's own users for `deno task eval --database-url` (docs/recommend.md, "Measuring
 * recommendations"): its movies and every user's history, dismissals, My List and 👍/👎, read in
 * one read-only transaction (the server refuses any write in it), with each user given a fresh
 * id. Nothing is written to the instance: the split and the recommenders work on a copy in an
 * embedded store.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import type { EvalData, EvalUser } from "./types.ts";

/** Movie columns the recommenders never read, left behind to keep the copy small. */
const LEFT_BEHIND = new Set([
  "overview",
  "watch_providers",
  "providers_cached_at",
  "release_dates",
  "trailer_url",
  "details_appends",
  "features_rev",
]);

const PAGE = 5_000;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

async function tableExists(sql: Sql, name: string): Promise<boolean> {
  const [row] = await sql.query<{ found: boolean }>(
    `select to_regclass($1) is not null as found`,
    [`public.${name}`],
  );
  return row.found;
}

/** Pages through `select` (ordered by catalog_id, keyset `$1`) as JSON made by the server. */
async function movies(sql: Sql, columns: string[]): Promise<Record<string, unknown>[]> {
  const list = columns.map((c) => `"${c}"`).join(", ");
  const out: Record<string, unknown>[] = [];
  let after = 0;
  for (;;) {
    const [row] = await sql.query<{ page: string }>(
      `select coalesce(json_agg(x order by x.catalog_id), '[]')::text as page
         from (select ${list} from public.movies where catalog_id > $1
                order by catalog_id limit ${PAGE}) x`,
      [after],
    );
    const page = JSON.parse(row.page) as Record<string, unknown>[];
    out.push(...page);
    if (page.length < PAGE) return out;
    after = Number(page[page.length - 1].catalog_id);
  }
}

/**
 * Reads the instance at `databaseUrl`: the movies (only `columns` the evaluation store has, less
 * LEFT_BEHIND) and every user with a watched film, a dismissal, My List or feedback.
 */
export async function readInstance(
  databaseUrl: string,
  options: { columns: string[] },
): Promise<EvalData> {
  const source = openPostgresStore(databaseUrl, { max: 1, timeoutMs: 600_000 });
  try {
    return await source.transaction(async (tx) => {
      await tx.query("set transaction read only");
      const [{ names }] = await tx.query<{ names: string[] }>(
        `select coalesce(array_agg(column_name::text), '{}') as names
           from information_schema.columns
          where table_schema = 'public' and table_name = 'movies'`,
      );
      const have = new Set(names);
      const columns = options.columns.filter((c) => have.has(c) && !LEFT_BEHIND.has(c));
      const users = new Map<string, EvalUser>();
      const user = (id: string) => {
        let found = users.get(id);
        if (!found) {
          found = { id: crypto.randomUUID(), watched: [], dismissed: [], myList: [], feedback: [] };
          users.set(id, found);
        }
        return found;
      };
      for (
        const w of await tx.query<
          {
            user_id: string;
            catalog_id: number;
            rating: number | null;
            watched_on: string | null;
            created_at: string;
          }
        >(
          `select user_id::text, catalog_id, rating, watched_on::text,
                  to_char(created_at at time zone 'utc', ${ISO}) as created_at
             from public.user_watched_movies`,
        )
      ) {
        user(w.user_id).watched.push({
          catalogId: Number(w.catalog_id),
          rating: w.rating === null ? null : Number(w.rating),
          watchedOn: w.watched_on,
          createdAt: w.created_at,
        });
      }
      for (
        const d of await tx.query<{ user_id: string; catalog_id: number; created_at: string }>(
          `select user_id::text, catalog_id, to_char(created_at at time zone 'utc', ${ISO}) as created_at
             from public.user_dismissed_movies`,
        )
      ) {
        user(d.user_id).dismissed.push({
          catalogId: Number(d.catalog_id),
          createdAt: d.created_at,
        });
      }
      for (
        const l of await tx.query<{ user_id: string; catalog_ids: number[] }>(
          `select user_id::text, catalog_ids from public.user_my_list where cardinality(catalog_ids) > 0`,
        )
      ) {
        user(l.user_id).myList = l.catalog_ids.map(Number);
      }
      if (await tableExists(tx, "recommend_feedback")) {
        for (
          const f of await tx.query<
            { user_id: string; catalog_id: number; value: number; created_at: string }
          >(
            `select user_id::text, catalog_id, value,
                    to_char(created_at at time zone 'utc', ${ISO}) as created_at
               from public.recommend_feedback`,
          )
        ) {
          user(f.user_id).feedback!.push({
            catalogId: Number(f.catalog_id),
            value: Number(f.value),
            createdAt: f.created_at,
          });
        }
      }
      return { movies: await movies(tx, columns), users: [...users.values()] };
    });
  } finally {
    await source.close();
  }
}
