/**
 * The query strings of GET /api/watched and GET /api/mylist (docs/entries.md): how a list
 * is sorted and filtered. Without a parameter a list reads exactly as before. The zod schemas
 * are what GET /api/openapi.json documents; any value they refuse is 400 `invalid_query`.
 */
import { z } from "zod";
import { MOVIE_GENRES } from "@/lib/catalog/genres.ts";
import { Problem } from "@/lib/core/problem.ts";
import { type ListCursor, readListCursor } from "./list_cursor.ts";

/** The sorts of the watched list; `added` (newest first) is the list's own order. */
const WATCHED_SORTS = ["added", "watched_on", "rating", "title", "year", "runtime"] as const;
/** The sorts of My List; `saved` is the order the movies were saved in. */
const MY_LIST_SORTS = ["saved", "title", "year", "runtime"] as const;

/** A sort of either list. */
type ListSort = (typeof WATCHED_SORTS)[number] | (typeof MY_LIST_SORTS)[number];

const GENRES = [...MOVIE_GENRES.values()];
const byLowerName = new Map(GENRES.map((name) => [name.toLowerCase(), name]));

const order = z.enum(["asc", "desc"]).optional()
  .meta({ description: "asc or desc; desc by default, except title and saved: asc." });

const genre = z.string().transform((name, ctx) => {
  const known = byLowerName.get(name.trim().toLowerCase());
  if (!known) ctx.addIssue({ code: "custom", message: "unknown genre" });
  return known ?? name;
}).optional().meta({
  description: `A genre name, any letter case: ${GENRES.join(", ")}.`,
});

// "Available to me" (docs/availability.md): stored providers only, in the read's own statement.
const available = z.enum(["mine"]).optional().meta({
  description: "mine keeps the movies that stream (flatrate, free, ads) on my services in my " +
    "region; 400 no_services when none are chosen.",
});

/** The most cards a paged read answers at once, and how many without a `limit`. */
const MAX_PAGE_LIMIT = 500;
const DEFAULT_PAGE_LIMIT = 60;

// Paging (docs/entries.md): either parameter makes the answer a page; without both, the whole list.
const paging = {
  limit: z.string().regex(/^[1-9][0-9]{0,2}$/).refine((n) => Number(n) <= MAX_PAGE_LIMIT)
    .optional().meta({
      description: "1-500: answer a page of at most this many cards, with nextCursor and " +
        "total (60 when only cursor is given). Without limit and cursor, the whole list.",
    }),
  cursor: z.string().min(1).max(1200).optional().meta({
    description: "The nextCursor of the previous page, with the same sort and order.",
  }),
};

/** GET /api/watched's query. */
export const watchedQuerySchema = z.object({
  sort: z.enum(WATCHED_SORTS).optional()
    .meta({
      description: "added (default: newest first), watched_on, rating, title, year, runtime; " +
        "unknown, unrated and fallback values sort last either way.",
    }),
  order,
  genre,
  rated: z.enum(["true", "false"]).optional()
    .meta({ description: "true: only rated entries; false: only unrated ones." }),
  include: z.string().regex(/^(entry|availability)(,(entry|availability))?$/).optional()
    .meta({
      description: "entry adds each card's entry (rating, watchedOn, note, addedAt); " +
        "availability adds where it streams on my services; both: entry,availability.",
    }),
  available,
  ...paging,
});

/** GET /api/mylist's query. */
export const myListQuerySchema = z.object({
  sort: z.enum(MY_LIST_SORTS).optional()
    .meta({
      description: "saved (default: saved order), title, year, runtime; unknown values last.",
    }),
  order,
  genre,
  include: z.enum(["availability"]).optional()
    .meta({ description: "availability adds where each movie streams on my services." }),
  available,
  ...paging,
});

/** How a list read is sorted and filtered. */
export interface ListQuery {
  sort: ListSort;
  order: "asc" | "desc";
  /** The genre's canonical name. */
  genre?: string;
  rated?: boolean;
  /** Adds each card's entry (watched list only). */
  includeEntry: boolean;
  /** Keeps only the movies available on the user's services. */
  availableMine?: boolean;
  /** Adds each card's availability on the user's services. */
  includeAvailability?: boolean;
  /**
   * A page of at most `limit` cards after `cursor` (the first page without one); a website
   * page (`?page=`) skips `offset` cards instead.
   */
  page?: { limit: number; cursor?: ListCursor; offset?: number };
}

/** The watched list's own order: what a read without a parameter gets. */
export const DEFAULT_WATCHED_QUERY: ListQuery = {
  sort: "added",
  order: "desc",
  includeEntry: false,
};
/** My List's own order. */
export const DEFAULT_MY_LIST_QUERY: ListQuery = {
  sort: "saved",
  order: "asc",
  includeEntry: false,
};

// The include list and the filter; absent, the query is exactly the one before them.
function withAvailability(q: Record<string, string | undefined>) {
  const include = q.include?.split(",") ?? [];
  return {
    includeEntry: include.includes("entry"),
    ...(include.includes("availability") ? { includeAvailability: true } : {}),
    ...(q.available === "mine" ? { availableMine: true } : {}),
  };
}

function defaultOrder(sort: ListSort): "asc" | "desc" {
  return sort === "title" || sort === "saved" ? "asc" : "desc";
}

// The parameters a schema knows, each at most once; other names are ignored, as elsewhere.
function pick(params: URLSearchParams, schema: z.ZodObject): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const values = params.getAll(name);
    if (values.length > 1) {
      throw new Problem(400, "invalid_query", `${name} may be given once.`);
    }
    if (values.length === 1) picked[name] = values[0];
  }
  return picked;
}

function parse(params: URLSearchParams, schema: z.ZodObject, base: ListQuery): ListQuery {
  const result = schema.safeParse(pick(params, schema));
  if (!result.success) {
    const name = String(result.error.issues[0]?.path[0] ?? "query");
    throw new Problem(400, "invalid_query", `${name} has a value this list does not take.`);
  }
  const q = result.data as Record<string, string | undefined>;
  const sort = (q.sort ?? base.sort) as ListSort;
  const query: ListQuery = {
    sort,
    order: (q.order as "asc" | "desc" | undefined) ?? defaultOrder(sort),
    ...(q.genre ? { genre: q.genre } : {}),
    ...(q.rated ? { rated: q.rated === "true" } : {}),
    ...withAvailability(q),
  };
  if (q.limit === undefined && q.cursor === undefined) return query;
  const list = base.sort === "added" ? "watched" : "mylist";
  query.page = { limit: q.limit === undefined ? DEFAULT_PAGE_LIMIT : Number(q.limit) };
  if (q.cursor !== undefined) query.page.cursor = readListCursor(q.cursor, { list, query });
  return query;
}

/** Reads GET /api/watched's query; 400 `invalid_query` on any value it does not take. */
export function parseWatchedQuery(params: URLSearchParams): ListQuery {
  return parse(params, watchedQuerySchema, DEFAULT_WATCHED_QUERY);
}

/** Reads GET /api/mylist's query; 400 `invalid_query` on any value it does not take. */
export function parseMyListQuery(params: URLSearchParams): ListQuery {
  return parse(params, myListQuerySchema, DEFAULT_MY_LIST_QUERY);
}

/**
 * A list page's query (/watched, /mylist): like the API's, but a value the list does not take
 * (a stale bookmark, an empty select) is ignored instead of refused, so the page still shows.
 */
export function parsePageQuery(params: URLSearchParams, list: "watched" | "mylist"): ListQuery {
  const schema = list === "watched" ? watchedQuerySchema : myListQuerySchema;
  const kept = new URLSearchParams();
  for (const [name, field] of Object.entries(schema.shape)) {
    // A page pages by ?page= (lib/web), never by the API's cursor.
    if (name in paging) continue;
    const value = params.get(name);
    if (value && (field as z.ZodType).safeParse(value).success) kept.set(name, value);
  }
  return list === "watched" ? parseWatchedQuery(kept) : parseMyListQuery(kept);
}
