/**
 * Where some movies stream on a user's services, from stored providers only (GET
 * /api/recommend/current's picks): one statement, the list reads' own SQL fragments.
 */
import {
  type Availability,
  AVAILABILITY_COLUMN,
  AVAILABILITY_JOIN,
  toAvailability,
} from "./availability_sql.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

const SQL = `select l.catalog_id as "catalogId", ${AVAILABILITY_COLUMN}
  from unnest($2::integer[]) as l(catalog_id)
  ${AVAILABILITY_JOIN}`;

/** `ids` → my providers streaming each (empty when none), for user `$1`. */
export async function availabilityOf(
  sql: Sql,
  userId: string,
  ids: number[],
): Promise<Map<number, Availability[]>> {
  const rows = await sql.query(SQL, [userId, ids]);
  return new Map(rows.map((r) => [Number(r.catalogId), toAvailability(r.availability)]));
}
