/** Reads a small JSON request body (signup and the /auth/v1 routes), refusing large ones. */

import { readCappedBody } from "../http/read_body.ts";

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
  const bytes = await readCappedBody(request);
  if (!bytes) return { ok: false, reason: "The body is larger than 16 KiB." };
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: false, reason: "The body is not valid JSON." };
  }
}
