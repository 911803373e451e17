/** Reads a small JSON request body (signup and the /auth/v1 routes), refusing large ones. */

/** Bodies above this many bytes are refused before parsing. */
export const MAX_BODY_BYTES = 16 * 1024;

/** The parsed body, or why it could not be read. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: string };

/** Reads at most 16 KiB of JSON; `requireJsonType` also insists on an application/json type. */
export async function readJsonBody(
  request: Request,
  options: { requireJsonType?: boolean } = {},
): Promise<JsonBody> {
  const type = request.headers.get("content-type") ?? "";
  if (options.requireJsonType && !/^application\/json\s*(;|$)/i.test(type)) {
    return { ok: false, reason: "The body must be application/json." };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { ok: false, reason: "The body is larger than 16 KiB." };
  const bytes = await readAtMost(request, MAX_BODY_BYTES);
  if (!bytes) return { ok: false, reason: "The body is larger than 16 KiB." };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: false, reason: "The body is not valid JSON." };
  }
}

// Stops reading once past the limit, so a body without Content-Length cannot fill memory.
async function readAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
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
