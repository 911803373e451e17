/**
 * What a receiver reads from a media server's event (docs/connections.md): a movie to log as
 * watched, a rating to set, or a reason the event is ignored. Each server's reader (plex.ts,
 * jellyfin.ts, emby.ts, generic.ts) turns its own payload into one of these.
 */

/** Which receiver an event came to. */
export type MediaSource = "plex" | "jellyfin" | "emby" | "generic";

/**
 * The movie an event names: a TMDB id when the server has one, else title and year.
 * `invalidId` marks an id that was sent but is no catalog id (not a whole number from 1 to
 * 2147483647): such an event is `unmatched`, never looked up.
 */
export interface NamedMovie {
  tmdbId?: number;
  invalidId?: true;
  title?: string;
  year?: number;
}

/** A readable event: what to do with it, or why nothing is done. */
export type MediaEvent =
  & { event: string; movie: NamedMovie }
  & (
    | {
      action: "watch";
      /** The event's own time (ISO 8601) when the server sends one; else it is the arrival. */
      at?: string;
      /** A rating 1-10 sent with the viewing (the generic form). */
      rating?: number;
    }
    | { action: "rate"; rating: number | null }
    | { action: "ignore"; reason: string }
  );

/**
 * The value at `key` when it is a non-blank string, trimmed and without NUL characters:
 * PostgreSQL text cannot hold U+0000, and a stray one says nothing about the film (the history
 * import drops them too).
 */
export function text(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  if (typeof value !== "string") return undefined;
  const clean = value.replaceAll("\0", "").trim();
  return clean === "" ? undefined : clean;
}

/** The value at `key` as an object, or an empty one. */
export function child(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return value && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** The largest catalog id: TMDB's ids fit a PostgreSQL `integer` (lib/catalog/catalog_id.ts). */
const MAX_CATALOG_ID = 2 ** 31 - 1;

/**
 * A TMDB id as the movie's fields (servers send numbers or numeric strings): none when absent,
 * null or blank; `invalidId` for anything else that is not a whole number from 1 to 2147483647.
 */
export function tmdbIdField(value: unknown): Pick<NamedMovie, "tmdbId" | "invalidId"> {
  if (value === undefined || value === null) return {};
  if (typeof value === "string" && value.trim() === "") return {};
  const n = typeof value === "number"
    ? value
    : typeof value === "string" && /^\s*\d{1,10}\s*$/.test(value)
    ? Number(value)
    : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_CATALOG_ID ? { tmdbId: n } : { invalidId: true };
}

/** A positive whole number from a number or a numeric string of up to nine digits. */
function positiveInt(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value)
    ? Number(value)
    : typeof value === "number"
    ? value
    : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A year 1800-2999 from a number or a numeric string. */
export function yearValue(value: unknown): number | undefined {
  const n = positiveInt(value);
  return n !== undefined && n >= 1800 && n <= 2999 ? n : undefined;
}

/**
 * A boolean sent as JSON `true`/`false` or, from the Jellyfin plugin's Handlebars templates
 * (which render .NET booleans), as the strings "True"/"False".
 */
export function flag(value: unknown): boolean {
  return value === true || (typeof value === "string" && value.trim().toLowerCase() === "true");
}
