/**
 * The lists of a Letterboxd export (its ZIP's lists/*.csv) as lists of the user's own
 * (docs/lists.md): read from Letterboxd's list layout, made private (or found again by
 * name, so a second import adds nothing), and filled batch by batch as the import matches.
 */
import { parse } from "csv-parse/sync";
import { restoreCell } from "@/lib/core/csv/cells.ts";
import type { ImportedList, ImportRow } from "../history/import/rows.ts";
import { lockForTransaction, type Sql, type Store } from "@/lib/platform/store/mod.ts";
import { MAX_DESCRIPTION, MAX_ITEM_NOTE, MAX_ITEMS, MAX_LISTS, MAX_NAME } from "./payloads.ts";

// A cell this service's export neutralised (lib/core/csv/cells.ts) reads back as written.
const cut = (text: string | undefined, max: number) =>
  [...restoreCell((text ?? "").trim())].slice(0, max).join("");
const year = (v: string | undefined) => {
  const n = Number((v ?? "").trim());
  return Number.isInteger(n) && n >= 1874 && n <= 2100 ? n : undefined;
};

/** One list file read: the list, its item rows (kind `list`), and rows past the item limit. */
interface ParsedList {
  list: ImportedList;
  rows: ImportRow[];
  skipped: number;
}

/**
 * Reads a list in Letterboxd's list export layout: an optional `Letterboxd list export v7`
 * line, a `Date,Name,Tags,URL,Description` block, a blank line, then
 * `Position,Name,Year,URL,Description` (ranked when positions are given). This service's own
 * list CSV names the film `Title` and adds `tmdbID`, which is matched exactly. Null when the
 * text is not in that layout.
 */
export function parseLetterboxdList(
  text: string,
  options: { index: number; fileName: string },
): ParsedList | null {
  let cells: string[][];
  try {
    cells = parse(text.replace(/^\uFEFF/, ""), {
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch {
    return null;
  }
  if (/^Letterboxd list export/i.test(cells[0]?.[0] ?? "")) cells = cells.slice(1);
  const metaHeader = (cells[0] ?? []).map((c) => c.trim());
  const itemsAt = cells.findIndex((r, i) => i > 0 && r.map((c) => c.trim()).includes("Year"));
  if (!metaHeader.includes("Name") || itemsAt < 0) return null;
  const meta: Record<string, string> = {};
  metaHeader.forEach((name, i) => meta[name] = cells[1]?.[i] ?? "");
  const header = cells[itemsAt].map((c) => c.trim());
  const titleColumn = header.includes("Name") ? "Name" : "Title";
  const col = (r: string[], name: string) => r[header.indexOf(name)];
  const tmdbId = (r: string[]) => {
    const n = Number((col(r, "tmdbID") ?? "").trim());
    return header.includes("tmdbID") && Number.isSafeInteger(n) && n > 0 ? n : undefined;
  };
  const items = cells.slice(itemsAt + 1).filter((r) =>
    (col(r, titleColumn) ?? "").trim() !== "" || tmdbId(r) !== undefined
  );
  const ranked = header.includes("Position") &&
    items.some((r) => /^\d+$/.test((col(r, "Position") ?? "").trim()));
  const kept = items.slice(0, MAX_ITEMS);
  return {
    list: {
      name: cut(meta["Name"], MAX_NAME) || cut(options.fileName.replace(/\.csv$/i, ""), MAX_NAME),
      description: cut(meta["Description"], MAX_DESCRIPTION),
      ranked,
    },
    rows: kept.map((r, i) => {
      const note = cut(col(r, "Description"), MAX_ITEM_NOTE);
      const row: ImportRow = {
        kind: "list",
        title: restoreCell((col(r, titleColumn) ?? "").trim()),
        list: { index: options.index, position: i + 1, ...(note ? { note } : {}) },
      };
      const id = tmdbId(r);
      if (id !== undefined) row.tmdbId = id;
      const y = year(col(r, "Year"));
      if (y !== undefined) row.year = y;
      return row;
    }),
    skipped: items.length - kept.length,
  };
}

/**
 * The user's list for each of the file's lists: one of theirs by the same name (so importing
 * again fills it, adding nothing twice), else a new private one while they have fewer than
 * the limit; null for a list past it (its rows are then skipped).
 */
export async function prepareLists(
  store: Store,
  userId: string,
  lists: ImportedList[],
): Promise<(string | null)[]> {
  if (lists.length === 0) return [];
  return await store.asUser(userId, async (tx) => {
    await lockForTransaction(tx, "userLists", userId);
    const mine = await tx.query<{ id: string; name: string }>(
      `select id::text as id, name from public.user_lists order by created_at, id`,
    );
    const byName = new Map<string, string>();
    for (const l of mine) if (!byName.has(l.name)) byName.set(l.name, l.id);
    let count = mine.length;
    const ids: (string | null)[] = [];
    for (const list of lists) {
      let id = byName.get(list.name) ?? null;
      if (id === null && count < MAX_LISTS) {
        const [row] = await tx.query<{ id: string }>(
          `insert into public.user_lists (user_id, name, description, ranked)
           values ((select auth.uid()), $1, $2, $3) returning id::text as id`,
          [list.name, list.description, list.ranked],
        );
        id = row.id;
        count++;
        byName.set(list.name, id);
      }
      ids.push(id);
    }
    return ids;
  });
}

const INSERT_SQL = `insert into public.user_list_items
    (list_id, catalog_id, position, source_position, note, added_at)
  select t.l::uuid, t.c, 1000000 + t.p, t.p, t.n, $5::timestamptz
    from unnest($1::text[], $2::integer[], $3::integer[], $4::text[]) as t(l, c, p, n)
  on conflict (list_id, catalog_id) do nothing
  returning list_id::text as "listId"`;

// Positions 1..n again, in the file's order; items added by hand come after the file's.
const RENUMBER_SQL = `update public.user_list_items i set position = r.n
  from (select catalog_id, row_number() over (
          order by source_position nulls last, position) as n
        from public.user_list_items where list_id = $1::uuid) r
  where i.list_id = $1::uuid and i.catalog_id = r.catalog_id and i.position <> r.n`;

/**
 * Adds the matched movies of a batch to the lists that hold them (inside the batch's
 * transaction, as the user) and renumbers those lists; answers how many items were added.
 */
export async function applyListItems(
  tx: Sql,
  batch: { unit: { lists?: { listId?: string; position: number; note?: string }[] }; id: number }[],
  options: { now: number },
): Promise<number> {
  const items = batch.flatMap(({ unit, id }) =>
    (unit.lists ?? []).flatMap((m) => m.listId ? [{ ...m, listId: m.listId, id }] : [])
  );
  if (items.length === 0) return 0;
  const listIds = [...new Set(items.map((i) => i.listId))].sort();
  for (const listId of listIds) {
    await tx.query(`select 1 from public.user_lists where id = $1::uuid for update`, [listId]);
  }
  // A list holds at most MAX_ITEMS: the file's items past that (a list found by name may
  // hold some by hand already) are left out.
  const counts = await tx.query<{ id: string; n: number }>(
    `select l::text as id, (select count(*)::int from public.user_list_items i
        where i.list_id = l) as n
       from unnest($1::uuid[]) as l`,
    [listIds],
  );
  const room = new Map(counts.map((c) => [c.id, MAX_ITEMS - c.n]));
  const fitting = items.filter((i) => {
    const left = room.get(i.listId) ?? 0;
    room.set(i.listId, left - 1);
    return left > 0;
  });
  const added = await tx.query<{ listId: string }>(INSERT_SQL, [
    fitting.map((i) => i.listId),
    fitting.map((i) => i.id),
    fitting.map((i) => i.position),
    fitting.map((i) => i.note ?? null),
    new Date(options.now).toISOString(),
  ]);
  for (const listId of listIds) {
    await tx.query(RENUMBER_SQL, [listId]);
    await tx.query(`update public.user_lists set updated_at = $2 where id = $1::uuid`, [
      listId,
      new Date(options.now).toISOString(),
    ]);
  }
  return added.length;
}
