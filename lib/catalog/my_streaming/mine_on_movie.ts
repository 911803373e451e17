/**
 * Which of a user's services include one movie in one region (the movie page's where-to-watch
 * lists them first, docs/availability.md): the names its stored streaming offers give them, so
 * the page matches them against the same stored data it shows. One indexed statement.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

const SQL = `select so.provider_name as name
  from public.movie_streaming_offers so
 where so.catalog_id = $1 and so.region = $2 and so.provider_id = any ($3::integer[])
 order by so.kind_ord, so.ord`;

/** The names of `providerIds` streaming `catalogId` in `region` (flatrate, free or ads). */
export async function mineOnMovie(
  sql: Sql,
  catalogId: number,
  options: { region: string; providerIds: number[] },
): Promise<string[]> {
  if (options.providerIds.length === 0) return [];
  const rows = await sql.query<{ name: string }>(SQL, [
    catalogId,
    options.region,
    options.providerIds,
  ]);
  return rows.map((r) => r.name);
}
