/** The bodies of the watched routes that carry history fields: read once, parsed by lib/lists. */
import type { EntryFields } from "../library/entries/entry_fields.ts";
import {
  parseEntryPatch,
  parseWatchedWrite,
  type WatchedWrite,
} from "../library/entries/watched_payload.ts";
import { readJson } from "./read_body.ts";

/** POST /api/watched's body: the catalog id and the history fields it names. */
export async function readWatchedWrite(request: Request, now: number): Promise<WatchedWrite> {
  return parseWatchedWrite(await readJson(request, { requireJsonType: true }), now);
}

/** PATCH /api/watched/:catalogId's body: the history fields to change. */
export async function readEntryPatch(request: Request, now: number): Promise<EntryFields> {
  return parseEntryPatch(await readJson(request, { requireJsonType: true }), now);
}

/** The query parameters of a request, or none without a `?` (the hot path parses nothing). */
export function searchParams(request: Request): URLSearchParams {
  const at = request.url.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : request.url.slice(at + 1));
}
