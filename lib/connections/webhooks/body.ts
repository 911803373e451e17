/**
 * Reading a receiver's body (docs/connections.md), read by the route at most 1 MiB
 * (`MAX_HOOK_BODY_BYTES`; 413 `payload_too_large` above): Plex's multipart form (its JSON in `payload`), Emby's JSON or multipart form (its JSON in
 * `data`), the Jellyfin plugin's JSON (sent as text/plain unless a header is set, so the type is
 * not checked) and the generic JSON. Only a body that cannot be read is 400 `invalid_payload`.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { MediaSource } from "./media_event.ts";

/** The largest body a receiver reads. */
export const MAX_HOOK_BODY_BYTES = 1024 * 1024;

/** The 400 of an unreadable body. */
function invalidPayload(detail: string): Problem {
  return new Problem(400, "invalid_payload", detail);
}

function object(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidPayload(`${what} is not valid JSON.`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw invalidPayload(`${what} is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}

const FORM_TYPE = /^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

async function formField(bytes: Uint8Array, type: string, field: string): Promise<string> {
  let form: FormData;
  try {
    form = await new Request("http://hook.invalid/", {
      method: "POST",
      headers: { "content-type": type },
      body: bytes as Uint8Array<ArrayBuffer>,
    }).formData();
  } catch {
    throw invalidPayload("The form cannot be read.");
  }
  const value = form.get(field);
  if (typeof value !== "string") throw invalidPayload(`The form has no "${field}" field.`);
  return value;
}

/** The 413 of a body over `MAX_HOOK_BODY_BYTES`. */
export function payloadTooLarge(): Problem {
  return new Problem(413, "payload_too_large", "A webhook body is at most 1 MiB.");
}

/** The event's JSON object from the body `source` sent (`type`: its Content-Type); throws the 400. */
export async function parseHookBody(
  bytes: Uint8Array,
  options: { source: MediaSource; type: string },
): Promise<Record<string, unknown>> {
  const { source, type } = options;
  const field = source === "plex" ? "payload" : source === "emby" ? "data" : null;
  if (field && (source === "plex" || FORM_TYPE.test(type))) {
    if (!FORM_TYPE.test(type)) throw invalidPayload("Plex sends a multipart form.");
    return object(await formField(bytes, type, field), `The "${field}" field`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidPayload("The body is not UTF-8 text.");
  }
  return object(text, "The body");
}
