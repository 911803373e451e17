/** The write payload of POST/DELETE on /api/watched and /api/mylist (contract section 6). */
import { z } from "zod";
import { Problem } from "../problem.ts";

/** Bodies above this many bytes are refused before parsing. */
export const MAX_PAYLOAD_BYTES = 16 * 1024;

const MAX_CATALOG_ID = 2 ** 31 - 1;
const catalogId = z.number().int().min(1).max(MAX_CATALOG_ID);
const flat = z.object({ catalogId: z.unknown() });
const nested = z.object({ movie: z.object({ catalogId: z.unknown() }) });

function invalidBody(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

// A chunked body has no Content-Length to refuse up front: stop reading once it passes the
// cap, so a client cannot make the server buffer an unbounded body before the size check.
async function readCapped(req: Request): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PAYLOAD_BYTES) {
      await reader.cancel().catch(() => {});
      throw invalidBody("The body is larger than 16 KiB.");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads the catalog id of a write. Body-level faults (wrong content type, too large, not JSON,
 * no catalogId anywhere) are `invalid_body`; a catalogId present but not an integer in
 * 1..2^31-1 is `invalid_catalog_id`.
 */
export async function readWritePayload(req: Request): Promise<number> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw invalidBody("The body must be application/json.");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_PAYLOAD_BYTES) throw invalidBody("The body is larger than 16 KiB.");
  const bytes = await readCapped(req);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw invalidBody("The body is not valid JSON.");
  }
  return parseCatalogId(body);
}

/** Picks the catalog id out of the flat or nested form of a parsed body. */
export function parseCatalogId(body: unknown): number {
  let raw: unknown;
  const f = flat.safeParse(body);
  if (f.success && f.data.catalogId !== undefined) raw = f.data.catalogId;
  else {
    const n = nested.safeParse(body);
    if (n.success && n.data.movie.catalogId !== undefined) raw = n.data.movie.catalogId;
    else throw invalidBody("The body needs catalogId or movie.catalogId.");
  }
  const id = catalogId.safeParse(raw);
  if (!id.success) {
    throw new Problem(
      400,
      "invalid_catalog_id",
      "catalogId must be an integer from 1 to 2147483647.",
    );
  }
  return id.data;
}
