/**
 * The statements of the list reads: the summary of a list and a page of its cards, each read one
 * statement whatever the list's length. Reads run with the server's privileges, scoped to the
 * verified user (as lib/library/entries does); writes run as the user, under row-level security.
 */
import { CARD_COLUMNS, type MovieCard, toCard } from "@/lib/catalog/cards.ts";
import type { Visibility } from "./payloads.ts";

/** A list as GET /api/lists shows it. */
export interface ListSummary {
  id: string;
  name: string;
  description: string;
  visibility: Visibility;
  ranked: boolean;
  count: number;
  updatedAt: string;
  shareUrl: string | null;
}

/** A card of a list: the movie card, its place and the owner's note. */
export type ListCard = MovieCard & { position: number; note: string | null };

/** The summary columns over `ul` (user_lists). */
export const SUMMARY_COLUMNS = `ul.id::text as id, ul.name, ul.description, ul.visibility,
    ul.ranked,
    (select count(*)::int from public.user_list_items c where c.list_id = ul.id) as count,
    to_char(ul.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt",
    ul.share_slug as "shareSlug"`;

/** The link of a slug. */
export function shareUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/s/${slug}`;
}

/** Shapes a row of SUMMARY_COLUMNS. */
export function toSummary(r: Record<string, unknown>, siteUrl: string): ListSummary {
  return {
    id: String(r.id),
    name: String(r.name),
    description: String(r.description),
    visibility: r.visibility as Visibility,
    ranked: Boolean(r.ranked),
    count: Number(r.count),
    updatedAt: String(r.updatedAt),
    shareUrl: r.shareSlug ? shareUrl(siteUrl, String(r.shareSlug)) : null,
  };
}

/** Shapes a row carrying CARD_COLUMNS, `position` and `note`. */
export function toListCard(r: Record<string, unknown>): ListCard {
  return {
    ...toCard(r),
    position: Number(r.position),
    note: r.note === null || r.note === undefined ? null : String(r.note),
  };
}

/** The user's lists, most recently changed first: `$1` the user. */
export const LISTS_SQL = `select ${SUMMARY_COLUMNS}
  from public.user_lists ul
  where ul.user_id = $1::uuid
  order by ul.updated_at desc, ul.id`;

/**
 * One list and a page of its cards in position order: `$1` the list, `$2` the user, `$3` the
 * position the page starts after, `$4` how many rows (one more than the page, to know whether
 * another follows). A list without items (or past its end) answers one row without a card.
 */
export const LIST_PAGE_SQL = `select s.*,
    ${CARD_COLUMNS},
    l.position, l.note
  from (
    -- The summary once: offset 0 keeps the planner from pulling the subquery up, which
    -- would take the count again for every card row.
    select ${SUMMARY_COLUMNS}
      from public.user_lists ul
     where ul.id = $1::uuid and ul.user_id = $2::uuid
     offset 0
  ) s
  left join lateral (
    select it.catalog_id, it.position, it.note
      from public.user_list_items it
     where it.list_id = $1::uuid and it.position > $3
     order by it.position
     limit $4
  ) l on true
  left join public.movies m on m.catalog_id = l.catalog_id
  order by l.position`;

/** One item's card, read inside the writing transaction: `$1` the list, `$2` the movie. */
export const ITEM_CARD_SQL = `select ${CARD_COLUMNS}, l.position, l.note
  from public.user_list_items l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.list_id = $1::uuid and l.catalog_id = $2`;
