/**
 * What the /trakt read routes share (docs/trakt.md, "Reads"): `extended=full`, the page asked,
 * a list answered with Trakt's X-Pagination-* headers, the empty show and episode lists, and
 * the `:id` of `users/:id/...` (`me`, or the user's own slug or id).
 */
import { Problem } from "@/lib/core/problem.ts";
import { readTraktSettings } from "@/lib/connections/trakt/account_reads.ts";
import {
  type PageAsk,
  paginationHeaders,
  parsePageAsk,
} from "@/lib/connections/trakt/pagination.ts";
import {
  readHistory,
  readRatings,
  readWatchlist,
  WATCHLIST_SORTS,
} from "@/lib/connections/trakt/sync_reads.ts";
import type { Ctx, Handlers } from "./app_env.ts";
import { traktUserOf } from "./middleware/trakt_user.ts";

/** Whether `extended` asks for `full` (Trakt takes a comma list, e.g. `full,images`). */
export function fullAsked(c: Ctx): boolean {
  return (c.req.query("extended") ?? "").split(",").some((v) => v.trim() === "full");
}

/** The page `page` and `limit` ask for, or null for everything (422 for a bad value). */
export function pageAskOf(c: Ctx): PageAsk | null {
  return parsePageAsk({ page: c.req.query("page"), limit: c.req.query("limit") });
}

/** A JSON list with Trakt's pagination headers for `total` items in all. */
export function traktPage(
  c: Ctx,
  ask: PageAsk | null,
  page: { items: unknown[]; total: number },
): Response {
  return c.json(page.items, 200, paginationHeaders(ask, page.total));
}

/** A show, season or episode list: movies only here, so always empty (signed in, paged). */
export const emptyTraktList: Handlers = {
  GET(c) {
    traktUserOf(c);
    return traktPage(c, pageAskOf(c), { items: [], total: 0 });
  },
};

/**
 * The signed-in caller when `users/:id` names them (`me`, their slug or their id), with Trakt's
 * user object; a 404 for anyone else (other people's data is not served here).
 */
export async function ownTraktUser(c: Ctx, id: string) {
  const caller = traktUserOf(c);
  const settings = await readTraktSettings(c.var.deps.store, caller.userId);
  if (id !== "me" && id !== settings.user.ids.slug && id !== caller.userId) {
    throw new Problem(404, "not_found", "Only your own user (me) is served here.");
  }
  return { userId: caller.userId, user: settings.user };
}

function badValue(detail: string): Problem {
  return new Problem(422, "invalid_value", detail);
}

/** An ISO 8601 instant of the query (`start_at`, `end_at`), or undefined; 422 when malformed. */
function instantOf(c: Ctx, name: string): string | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/.test(raw) || isNaN(Date.parse(raw))) {
    throw badValue(`${name} must be an ISO 8601 time, e.g. 2024-01-31T20:00:00.000Z.`);
  }
  return new Date(raw).toISOString();
}

/** `GET /sync/history/movies[/:id]`: `id` a film's trakt id (any other id has no history). */
export async function historyPage(c: Ctx, id: string | undefined): Promise<Response> {
  const { userId } = traktUserOf(c);
  const page = pageAskOf(c);
  const startAt = instantOf(c, "start_at");
  const endAt = instantOf(c, "end_at");
  if (id !== undefined && !/^\d{1,10}$/.test(id)) {
    return traktPage(c, page, { items: [], total: 0 });
  }
  const catalogId = id === undefined ? undefined : Number(id);
  const read = await readHistory(c.var.deps.store, userId, {
    catalogId,
    startAt,
    endAt,
    page,
    full: fullAsked(c),
  });
  return traktPage(c, page, read);
}

/** `GET /sync/ratings/movies[/:rating]`: `rating` one rating or a comma list, each 1 to 10. */
export async function ratingsPage(c: Ctx, rating: string | undefined): Promise<Response> {
  const { userId } = traktUserOf(c);
  const page = pageAskOf(c);
  let ratings: number[] | undefined;
  if (rating !== undefined) {
    ratings = rating.split(",").map((r) => {
      if (!/^\d{1,2}$/.test(r.trim()) || Number(r) < 1 || Number(r) > 10) {
        throw badValue("A rating is a whole number from 1 to 10 (or a comma list of them).");
      }
      return Number(r);
    });
  }
  const read = await readRatings(c.var.deps.store, userId, { ratings, page, full: fullAsked(c) });
  return traktPage(c, page, read);
}

/** `GET /sync/watchlist/movies[/:sort]`: `sort` rank, added, released or title. */
export async function watchlistPage(c: Ctx, sort: string | undefined): Promise<Response> {
  const { userId } = traktUserOf(c);
  const page = pageAskOf(c);
  const known = WATCHLIST_SORTS.find((s) => s === sort);
  if (sort !== undefined && !known) {
    throw badValue(`sort is one of ${WATCHLIST_SORTS.join(", ")}.`);
  }
  const read = await readWatchlist(c.var.deps.store, userId, {
    sort: known,
    page,
    full: fullAsked(c),
  });
  return traktPage(c, page, read);
}

/** The kinds an id search asks for (`type`, a comma list); every kind when absent. */
export function searchTypesOf(c: Ctx): string[] {
  const raw = c.req.query("type");
  return raw ? raw.split(",").map((t) => t.trim()) : ["movie", "show", "episode", "person", "list"];
}
