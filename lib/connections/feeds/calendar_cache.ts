/**
 * Written calendar feeds kept in this instance's memory (docs/calendar.md, "The iCal feed"):
 * one per secret and query, gzipped, with the ETag of its events and the calendar's fingerprint
 * when they were read. A poll whose fingerprint is unchanged is answered from here without
 * reading the events or writing them again. Bounded in bytes (the least recently read goes
 * first) and dropped after an hour unread.
 */

/** A feed as written once. */
interface WrittenFeed {
  /** The calendar's fingerprint (CalendarService.version), taken before its events were read. */
  version: string;
  /** The ETag of its events. */
  etag: string;
  gzip: Uint8Array<ArrayBuffer>;
}

/** What the feed's service keeps its written feeds in. */
export interface CalendarCache {
  /** The feed kept under `key`, if not idle too long; a hit counts as a use. */
  get(key: string, now: number): WrittenFeed | null;
  /** Keeps `feed` under `key` (replacing the one there), dropping others past the bounds. */
  set(key: string, feed: WrittenFeed, now: number): void;
}

/** Bytes of gzip all feeds may hold together: about 400 feeds of 1,500 events. */
const MAX_BYTES = 8 * 1024 * 1024;
/** A feed unread this long is dropped: calendar apps poll every 5 minutes to a day. */
const IDLE_MS = 60 * 60_000;

/** The gzip of `text`. */
export async function gzipText(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The text of a gzip made by gzipText. */
export async function gunzipText(gzip: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** A cache with the given bounds (tests pass small ones). */
export function createCalendarCache(
  bounds: { maxBytes?: number; idleMs?: number } = {},
): CalendarCache {
  const maxBytes = bounds.maxBytes ?? MAX_BYTES;
  const idleMs = bounds.idleMs ?? IDLE_MS;
  // Insertion order is use order: a read moves its entry to the end.
  const entries = new Map<string, { feed: WrittenFeed; usedAt: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.feed.gzip.byteLength;
    entries.delete(key);
  };
  const sweep = (now: number) => {
    for (const [key, entry] of entries) {
      if (bytes <= maxBytes && now - entry.usedAt < idleMs) break;
      drop(key);
    }
  };
  return {
    get(key, now) {
      sweep(now);
      const entry = entries.get(key);
      if (!entry) return null;
      entries.delete(key);
      entries.set(key, { feed: entry.feed, usedAt: now });
      return entry.feed;
    },
    set(key, feed, now) {
      drop(key);
      if (feed.gzip.byteLength > maxBytes) return;
      entries.set(key, { feed, usedAt: now });
      bytes += feed.gzip.byteLength;
      sweep(now);
    },
  };
}
