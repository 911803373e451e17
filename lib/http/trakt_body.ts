/**
 * The JSON body of a /trakt write (docs/trakt.md, "Writes and scrobbles"): at most 1 MiB (413
 * `body_too_large`), JSON (Trakt's 412 `invalid_body` for anything else) and an object, with at
 * most 1,000 items across its `movies`, `shows`, `seasons`, `episodes` and `ids` (413
 * `too_many_items`). An empty body reads as `{}` (DELETE-like posts some clients send bare).
 */
import { Problem } from "../core/problem.ts";
import { holdsNul, readCappedBody } from "./read_body.ts";

/** The largest body a /trakt write reads. */
const MAX_TRAKT_BODY_BYTES = 1024 * 1024;
/** The most items one body names. */
const MAX_TRAKT_ITEMS = 1000;

const LISTS = ["movies", "shows", "seasons", "episodes", "ids"];

/** The body as a JSON object, or a Problem. */
export async function readTraktJson(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readCappedBody(request, { maxBytes: MAX_TRAKT_BODY_BYTES });
  if (bytes === null) {
    throw new Problem(413, "body_too_large", "A request body holds at most 1 MiB.");
  }
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Problem(412, "invalid_body", "The body must be JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Problem(412, "invalid_body", "The body must be a JSON object.");
  }
  // PostgreSQL text cannot hold U+0000: a bad value (422), never a 500 from the store.
  if (holdsNul(value)) {
    throw new Problem(422, "invalid_text", "Text must not contain the NUL character (U+0000).");
  }
  const body = value as Record<string, unknown>;
  const items = LISTS.reduce((n, key) => n + (Array.isArray(body[key]) ? body[key].length : 0), 0);
  if (items > MAX_TRAKT_ITEMS) {
    throw new Problem(
      413,
      "too_many_items",
      `A request names at most ${MAX_TRAKT_ITEMS.toLocaleString("en")} items.`,
    );
  }
  return body;
}

/**
 * The body of a /trakt/oauth request: JSON as Trakt's clients send it, or a form as generic
 * OAuth libraries do (RFC 6749).
 */
export async function readOAuthBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    return await readTraktJson(request);
  }
  const bytes = await readCappedBody(request, { maxBytes: 16 * 1024 });
  if (!bytes) throw new Problem(413, "body_too_large", "The body is larger than 16 KiB.");
  const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
  if (holdsNul(form)) {
    throw new Problem(422, "invalid_text", "Text must not contain the NUL character (U+0000).");
  }
  return form;
}
