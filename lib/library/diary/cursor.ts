/**
 * The diary's opaque cursor: the last entry's place in the diary's order (date, time logged to
 * the microsecond, id), so the next page starts right after it with no gap or repeat, even when
 * entries are added or removed in between.
 */
import { isCalendarDate } from "../entries/entry_fields.ts";

/** A place in the diary's order. */
export interface DiaryCursor {
  watchedOn: string;
  loggedAt: string;
  id: string;
}

const LOGGED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Encodes a place as the URL-safe text nextCursor carries. */
export function writeCursor(at: DiaryCursor): string {
  const text = `${at.watchedOn}|${at.loggedAt}|${at.id}`;
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decodes a cursor; null when it is not one `writeCursor` made. */
export function readCursor(text: string): DiaryCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  let plain: string;
  try {
    plain = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
  const [watchedOn, loggedAt, id, ...rest] = plain.split("|");
  if (rest.length > 0 || !isCalendarDate(watchedOn ?? "")) return null;
  if (!LOGGED_AT.test(loggedAt ?? "") || !UUID.test(id ?? "")) return null;
  return { watchedOn, loggedAt, id };
}
