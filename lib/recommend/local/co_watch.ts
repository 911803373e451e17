/**
 * Co-watching (docs/recommend.md, "Local picks"): for seed films, the other films watched by at
 * least 3 distinct users of this instance who also watched the seed. Only counts leave the
 * statement, never who; the requesting user is not counted.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** Fewest distinct users a pair needs before it counts. */
const MIN_CO_WATCHERS = 3;

/** Most seed films one read looks at (the user's strongest). */
const MAX_SEEDS = 50;

const CO_WATCH_SQL = `select w1.catalog_id as seed, w2.catalog_id as other, count(*)::int as n
    from public.user_watched_movies w1
    join public.user_watched_movies w2
      on w2.user_id = w1.user_id and w2.catalog_id <> w1.catalog_id
   where w1.catalog_id = any($1::integer[])
     and ($2::uuid is null or w1.user_id <> $2::uuid)
   group by w1.catalog_id, w2.catalog_id
  having count(*) >= ${MIN_CO_WATCHERS}`;

/** One pair: how many users watched both `seed` and `other`. */
interface CoWatch {
  seed: number;
  other: number;
  users: number;
}

/** The pairs of `seeds` (at most MAX_SEEDS are read) seen by at least 3 users but `userId`. */
export async function coWatched(
  sql: Sql,
  seeds: number[],
  options: { userId: string | null },
): Promise<CoWatch[]> {
  if (seeds.length === 0) return [];
  const rows = await sql.query<{ seed: number; other: number; n: number }>(CO_WATCH_SQL, [
    seeds.slice(0, MAX_SEEDS),
    options.userId,
  ]);
  return rows.map((r) => ({ seed: Number(r.seed), other: Number(r.other), users: Number(r.n) }));
}
