/** Reading a small request body with a hard cap: the one body reader of every route. */
import { Problem } from "../core/problem.ts";

/** Bodies above this many bytes are refused (docs/api.md: 16 KiB). */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * The body's bytes, or null when it is larger than `maxBytes` (16 KiB by default). A declared
 * Content-Length over the cap is refused unread; a chunked body is read only until it passes
 * the cap, so a client cannot make the server buffer an unbounded body before the size check.
 */
export async function readCappedBody(
  request: Request,
  options: { maxBytes?: number } = {},
): Promise<Uint8Array | null> {
  const limit = options.maxBytes ?? MAX_BODY_BYTES;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  // A declared length is filled in place as the chunks arrive: keeping the chunks and joining
  // them held two copies of a 20 MiB upload at the end of its read (issue 43).
  let whole = Number.isSafeInteger(declared) && declared > 0 ? new Uint8Array(declared) : null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // A deadline (lib/http/middleware/body_deadline.ts) is already a Problem; anything else is the
      // client going away mid-body, which is not the server's failure (nginx's 499).
      if (error instanceof Problem) throw error;
      throw clientClosed(error);
    }
    const { done, value } = chunk;
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    // A body longer than it said (only a hand-built Request can be) goes on in pieces.
    if (whole && size + value.byteLength > whole.length) {
      chunks.push(whole.subarray(0, size));
      whole = null;
    }
    if (whole) whole.set(value, size);
    else chunks.push(value);
    size += value.byteLength;
  }
  if (whole) return size === whole.length ? whole : whole.slice(0, size);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** The client closed the connection before its body arrived; logged at info, never answered. */
function clientClosed(cause?: unknown): Problem {
  return new Problem(499, "client_closed_request", "The client closed the request.", { cause });
}

function invalidBody(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

/**
 * The parsed JSON body, or a 400 `invalid_body` Problem saying why not (wrong content type with
 * `requireJsonType`, over 16 KiB, not JSON, a NUL character in a text). With `allowEmpty`, a blank body is `undefined`.
 */
export async function readJson(
  request: Request,
  options: { requireJsonType?: boolean; allowEmpty?: boolean } = {},
): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (options.requireJsonType && !/^application\/json\s*(;|$)/i.test(type)) {
    throw invalidBody("The body must be application/json.");
  }
  const bytes = await readCappedBody(request);
  if (!bytes) throw invalidBody("The body is larger than 16 KiB.");
  const text = new TextDecoder().decode(bytes);
  if (options.allowEmpty && text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody("The body is not valid JSON.");
  }
  // PostgreSQL text cannot hold U+0000: refused here for every text field of every route,
  // instead of failing as a 500 when a note or name reaches the store.
  if (holdsNul(value)) throw invalidBody(NUL_DETAIL);
  return value;
}

/** Why a body with a NUL character in a text is refused. */
const NUL_DETAIL = "Text must not contain the NUL character (U+0000).";

/** Whether any string (or key) in a parsed JSON value holds U+0000. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => key.includes("\0") || holdsNul(item));
  }
  return false;
}
