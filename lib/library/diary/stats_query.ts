/** The queries of GET /api/stats (`year`) and GET /api/diary/unrated (`limit`); else 400 `invalid_query`. */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import { MAX_UNRATED } from "./read.ts";

/** GET /api/stats's query as documented. */
export const statsQuerySchema = z.object({
  year: z.string().regex(/^\d{4}$/).optional()
    .meta({ description: "A year from 1874; without it, all time." }),
});

/** GET /api/diary/unrated's query as documented. */
export const unratedQuerySchema = z.object({
  limit: z.string().regex(/^\d{1,2}$/).optional()
    .meta({ description: `How many, 1-${MAX_UNRATED} (default 20).` }),
});

function only(params: URLSearchParams, key: string) {
  for (const k of params.keys()) {
    if (k !== key) throw new Problem(400, "invalid_query", `Unknown parameter ${k}.`);
  }
}

/** The year asked for, or null for all time. */
export function parseStatsYear(params: URLSearchParams): number | null {
  only(params, "year");
  const q = statsQuerySchema.safeParse(Object.fromEntries(params));
  const year = q.success && q.data.year !== undefined ? Number(q.data.year) : null;
  if (!q.success || (year !== null && year < 1874)) {
    throw new Problem(400, "invalid_query", "year must be YYYY, from 1874.");
  }
  return year;
}

/** How many movies the queue of what to rate shows. */
export function parseUnratedLimit(params: URLSearchParams): number {
  only(params, "limit");
  const q = unratedQuerySchema.safeParse(Object.fromEntries(params));
  const n = q.success ? Number(q.data.limit ?? 20) : 0;
  if (n < 1 || n > MAX_UNRATED) {
    throw new Problem(400, "invalid_query", `limit must be 1-${MAX_UNRATED}.`);
  }
  return n;
}
