/**
 * `GET /api/export` (docs/history.md): the user's watched list with ratings, dates and
 * notes and My List as JSON, or one of them as the CSV Letterboxd's importer reads
 * (`tmdbID,Title,Year,Rating10,WatchedDate,Review`), written by csv-stringify (RFC 4180); the
 * diary too, one row per viewing (`tmdbID,Title,Year,WatchedDate,Rating10,Rewatch,Review`).
 */
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { neutraliseCell } from "@/lib/core/csv/cells.ts";
import { type ExportedList, exportLists } from "@/lib/library/lists/export.ts";

/** A watched entry of the export. */
interface ExportedWatched {
  catalogId: number;
  title: string;
  year: number;
  rating: number | null;
  watchedOn: string | null;
  note: string | null;
  addedAt: string;
}

/** A My List entry of the export. */
interface ExportedListed {
  catalogId: number;
  title: string;
  year: number;
}

/** A viewing of the export's diary (docs/diary.md). */
interface ExportedViewing {
  catalogId: number;
  title: string;
  year: number;
  watchedOn: string;
  rating: number | null;
  rewatch: boolean;
  note: string | null;
}

/** The JSON export. */
export interface HistoryExport {
  exportedAt: string;
  watched: ExportedWatched[];
  myList: ExportedListed[];
  diary: ExportedViewing[];
  /** The user's own lists (docs/lists.md), items in position order. */
  lists: ExportedList[];
}

/** The diary CSV's header: Letterboxd's importer reads these names too. */
const DIARY_CSV_HEADER = [
  "tmdbID",
  "Title",
  "Year",
  "WatchedDate",
  "Rating10",
  "Rewatch",
  "Review",
];

// Newest first, as the diary reads; one query, whatever its length.
const DIARY_SQL = `select v.catalog_id, coalesce(m.title, '') as title, coalesce(m.year, 0) as year,
    v.watched_on::text as watched_on, v.rating, v.rewatch, v.note
  from public.user_viewings v
  left join public.movies m on m.catalog_id = v.catalog_id
  where v.user_id = $1::uuid
  order by v.watched_on desc, v.created_at desc, v.id desc`;

/** The user's viewings, newest first. */
async function exportDiary(sql: Sql, userId: string): Promise<ExportedViewing[]> {
  const rows = await sql.query<Record<string, unknown>>(DIARY_SQL, [userId]);
  return rows.map((r) => ({
    catalogId: Number(r.catalog_id),
    title: String(r.title),
    year: Number(r.year),
    watchedOn: String(r.watched_on),
    rating: r.rating === null ? null : Number(r.rating),
    rewatch: Boolean(r.rewatch),
    note: r.note === null ? null : String(r.note),
  }));
}

/** The CSV's header, as Letterboxd's importer names the columns. */
const CSV_HEADER = ["tmdbID", "Title", "Year", "Rating10", "WatchedDate", "Review"];

// Newest first, as the watched list reads; one query each, whatever the list's length.
const WATCHED_SQL =
  `select l.catalog_id, coalesce(m.title, '') as title, coalesce(m.year, 0) as year,
    l.rating, to_char(l.watched_on, 'YYYY-MM-DD') as watched_on, l.note, l.created_at
  from public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.user_id = $1::uuid
  order by l.created_at desc, l.catalog_id desc`;

const MY_LIST_SQL =
  `select l.catalog_id, coalesce(m.title, '') as title, coalesce(m.year, 0) as year
  from public.user_my_list s
  cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  where s.user_id = $1::uuid
  order by l.ord`;

/** The user's watched entries, newest first. */
async function exportWatched(sql: Sql, userId: string): Promise<ExportedWatched[]> {
  const rows = await sql.query<Record<string, unknown>>(WATCHED_SQL, [userId]);
  return rows.map((r) => ({
    catalogId: Number(r.catalog_id),
    title: String(r.title),
    year: Number(r.year),
    rating: r.rating === null ? null : Number(r.rating),
    watchedOn: r.watched_on === null ? null : String(r.watched_on),
    note: r.note === null ? null : String(r.note),
    addedAt: new Date(r.created_at as string).toISOString(),
  }));
}

/** The user's My List, in saved order. */
async function exportMyList(sql: Sql, userId: string): Promise<ExportedListed[]> {
  const rows = await sql.query<Record<string, unknown>>(MY_LIST_SQL, [userId]);
  return rows.map((r) => ({
    catalogId: Number(r.catalog_id),
    title: String(r.title),
    year: Number(r.year),
  }));
}

/** The whole export as JSON. */
export async function exportJson(sql: Sql, userId: string, now: number): Promise<HistoryExport> {
  const [watched, myList, diary, lists] = await Promise.all([
    exportWatched(sql, userId),
    exportMyList(sql, userId),
    exportDiary(sql, userId),
    exportLists(sql, userId),
  ]);
  return { exportedAt: new Date(now).toISOString(), watched, myList, diary, lists };
}

/**
 * One list as CSV; unknown values are empty cells, and a cell a spreadsheet would run as a
 * formula gets a leading `'` (lib/core/csv/cells.ts; the importer takes it off again).
 */
export async function exportCsv(sql: Sql, userId: string, list: "watched" | "mylist" | "diary") {
  if (list === "diary") {
    const viewings = (await exportDiary(sql, userId)).map((v) => [
      v.catalogId,
      v.title,
      v.year || "",
      v.watchedOn,
      v.rating ?? "",
      v.rewatch ? "Yes" : "",
      v.note ?? "",
    ]);
    return stringify(viewings.map((cells) => cells.map(neutraliseCell)), {
      header: true,
      columns: DIARY_CSV_HEADER,
      record_delimiter: "windows",
    });
  }
  const rows = list === "watched"
    ? (await exportWatched(sql, userId)).map((e) => [
      e.catalogId,
      e.title,
      e.year || "",
      e.rating ?? "",
      e.watchedOn ?? "",
      e.note ?? "",
    ])
    : (await exportMyList(sql, userId)).map((
      e,
    ) => [e.catalogId, e.title, e.year || "", "", "", ""]);
  return stringify(rows.map((cells) => cells.map(neutraliseCell)), {
    header: true,
    columns: CSV_HEADER,
    record_delimiter: "windows",
  });
}

/** The query of `GET /api/export`: JSON by default; a CSV names its list. */
export const exportQuerySchema = z.strictObject({
  format: z.enum(["json", "csv"]).optional(),
  list: z.enum(["watched", "mylist", "diary", "list"]).optional(),
  id: z.string().uuid().optional().meta({ description: "The list of list=list (one of yours)." }),
}).refine((q) => q.format !== "csv" || q.list !== undefined, { message: "list is required" })
  .refine((q) => (q.list === "list") === (q.id !== undefined), { message: "id with list=list" })
  .refine((q) => q.format === "csv" || q.list === undefined, { message: "list needs csv" });
