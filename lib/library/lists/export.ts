/**
 * The lists in the user's export: every list with its items in position order (one statement),
 * and one list as CSV in Letterboxd's list layout (the list's block, a blank line, then the
 * items as `Position,tmdbID,Title,Year,Description`, RFC 4180), which the import reads back.
 */
import { stringify } from "csv-stringify/sync";
import { neutraliseCell } from "@/lib/core/csv/cells.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { listNotFound } from "./items.ts";
import type { Visibility } from "./payloads.ts";
import { shareUrl } from "./sql.ts";

/** An item of an exported list. */
interface ExportedListItem {
  catalogId: number;
  title: string;
  year: number;
  position: number;
  note: string | null;
}

/** A list of the export. */
export interface ExportedList {
  name: string;
  description: string;
  visibility: Visibility;
  ranked: boolean;
  items: ExportedListItem[];
}

/** The per-list CSV's header of the items. */
const LIST_CSV_HEADER = ["Position", "tmdbID", "Title", "Year", "Description"];

/** The per-list CSV's first line and the header of its list block, as Letterboxd writes them. */
const LIST_CSV_VERSION = "Letterboxd list export v7";
const LIST_BLOCK_HEADER = ["Date", "Name", "Tags", "URL", "Description"];

// Lists oldest first (the order they were made), items in position order.
const LISTS_SQL = `select ul.name, ul.description, ul.visibility, ul.ranked,
    coalesce((
      select json_agg(json_build_object('catalogId', i.catalog_id,
          'title', coalesce(m.title, ''), 'year', coalesce(m.year, 0),
          'position', i.position, 'note', i.note) order by i.position)
        from public.user_list_items i
        left join public.movies m on m.catalog_id = i.catalog_id
       where i.list_id = ul.id
    ), '[]'::json) as items
  from public.user_lists ul
  where ul.user_id = $1::uuid
  order by ul.created_at, ul.id`;

/** Every list of the user with its items. */
export async function exportLists(sql: Sql, userId: string): Promise<ExportedList[]> {
  const rows = await sql.query(LISTS_SQL, [userId]);
  return rows.map((r) => ({
    name: String(r.name),
    description: String(r.description),
    visibility: r.visibility as Visibility,
    ranked: Boolean(r.ranked),
    items: (typeof r.items === "string" ? JSON.parse(r.items) : r.items) as ExportedListItem[],
  }));
}

const ONE_SQL = `select ul.name, ul.description, ul.share_slug as slug,
    to_char(ul.created_at at time zone 'UTC', 'YYYY-MM-DD') as created, i.position, i.catalog_id, coalesce(m.title, '') as title,
    coalesce(m.year, 0) as year, i.note
  from public.user_lists ul
  left join public.user_list_items i on i.list_id = ul.id
  left join public.movies m on m.catalog_id = i.catalog_id
  where ul.id = $1::uuid and ul.user_id = $2::uuid
  order by i.position`;

/**
 * One of the user's lists as CSV, with its name for the file; 404 `list_not_found` if not
 * theirs. `siteUrl` gives a shared list's link in the list block's URL.
 */
export async function exportListCsv(
  sql: Sql,
  key: { userId: string; listId: string; siteUrl?: string },
): Promise<{ name: string; csv: string }> {
  const rows = await sql.query(ONE_SQL, [key.listId, key.userId]);
  if (rows.length === 0) throw listNotFound();
  const records = rows.filter((r) => r.catalog_id !== null).map((r) => [
    Number(r.position),
    Number(r.catalog_id),
    String(r.title ?? ""),
    Number(r.year) || "",
    r.note === null || r.note === undefined ? "" : String(r.note),
  ]);
  // A cell a spreadsheet would run as a formula gets a leading `'` (lib/core/csv/cells.ts).
  const list = rows[0];
  const block = [
    String(list.created),
    String(list.name),
    "",
    list.slug && key.siteUrl ? shareUrl(key.siteUrl, String(list.slug)) : "",
    String(list.description ?? ""),
  ];
  const head = stringify([LIST_BLOCK_HEADER, block.map(neutraliseCell)], {
    record_delimiter: "windows",
  });
  const items = stringify(records.map((cells) => cells.map(neutraliseCell)), {
    header: true,
    columns: LIST_CSV_HEADER,
    record_delimiter: "windows",
  });
  return { name: String(list.name), csv: `${LIST_CSV_VERSION}\r\n${head}\r\n${items}` };
}
