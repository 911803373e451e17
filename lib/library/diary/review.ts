/** The year-in-review page's data: the numbers, the top rated films' cards, the years to link. */
import { HYDRATE_SQL, type MovieCard, toCard } from "@/lib/catalog/cards.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { readYearStats, type YearStats } from "./stats.ts";
import { YEARS_SQL } from "./stats_sql.ts";

/** What /stats and /stats/YYYY show. */
export interface YearReview {
  stats: YearStats;
  top: MovieCard[];
  /** The years with a viewing or a dated watched movie counted, newest first. */
  years: number[];
}

/** Reads the review of `year` (null: all time) in three statements. */
export async function readYearReview(
  sql: Sql,
  userId: string,
  year: number | null,
): Promise<YearReview> {
  const [stats, years] = await Promise.all([
    readYearStats(sql, userId, year),
    sql.query<{ y: number }>(YEARS_SQL, [userId]),
  ]);
  const top = stats.topRated.length === 0
    ? []
    : (await sql.query(HYDRATE_SQL, [stats.topRated])).map(toCard);
  return { stats, top, years: years.map((r) => Number(r.y)) };
}
