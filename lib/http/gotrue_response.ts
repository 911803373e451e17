/**
 * Supabase Auth (GoTrue) on the wire: its error bodies and the headers supabase-js reads
 * (docs/identity.md, "Built-in provider": the error shapes). The /auth/v1 routes answer these
 * shapes, and onError renders a thrown GoTrueError with `gotrueErrorResponse`.
 */
import type { GoTrueError } from "../identity/auth/gotrue_error.ts";

/** The API version supabase-js sends and GoTrue echoes when it answers the versioned shape. */
const API_VERSION = "2024-01-01";
const API_VERSION_HEADER = "X-Supabase-Api-Version";

/** Whether the request asked for the 2024-01-01 error shape (supabase-js always does). */
export function wantsVersionedErrors(request: Request): boolean {
  const raw = request.headers.get(API_VERSION_HEADER)?.trim() ?? "";
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) return false;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(at) && at >= Date.UTC(2024, 0, 1);
}

function baseHeaders(request: Request): Headers {
  const headers = new Headers({ "cache-control": "no-store" });
  // supabase-js takes `code` from the body only when the response carries the version header.
  if (wantsVersionedErrors(request)) headers.set(API_VERSION_HEADER, API_VERSION);
  return headers;
}

/** GoTrue's error response: `{code,message}` when versioned, else `{code,error_code,msg}`. */
export function gotrueErrorResponse(request: Request, error: GoTrueError): Response {
  const headers = baseHeaders(request);
  for (const [k, v] of Object.entries(error.headers)) headers.set(k, v);
  headers.set("content-type", "application/json");
  headers.set("x-sb-error-code", error.code);
  const body = wantsVersionedErrors(request)
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** A JSON success response of a GoTrue route (never cached: it carries tokens). */
export function gotrueJson(request: Request, body: unknown): Response {
  const headers = baseHeaders(request);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status: 200, headers });
}

/** An empty success response of a GoTrue route (logout's 204). */
export function gotrueNoContent(request: Request): Response {
  return new Response(null, { status: 204, headers: baseHeaders(request) });
}
