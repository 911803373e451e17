/**
 * Supabase Auth (GoTrue) on the wire: its error bodies and the headers supabase-js reads
 * (shared/notes/supabase-auth-wire-format.md, section 5). The /auth/v1 routes answer these
 * shapes instead of problem documents, so supabase-js reports errors as it does against
 * Supabase itself.
 */
import type { Ctx, Handlers } from "../http/env.ts";

/** The API version supabase-js sends and GoTrue echoes when it answers the versioned shape. */
export const API_VERSION = "2024-01-01";
const API_VERSION_HEADER = "X-Supabase-Api-Version";

/** An error of a GoTrue route: HTTP status, GoTrue `error_code` and message. */
export class GoTrueError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** Members GoTrue adds to this error's body (`weak_password: {reasons}`). */
  extra: Record<string, unknown> = {};

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "GoTrueError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

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

type Handler = NonNullable<Handlers["GET"]>;

/** Wraps a route handler so a thrown GoTrueError answers GoTrue's error shape. */
export function gotrueHandler(handle: Handler): Handler {
  return async function gotrueHandler(c: Ctx) {
    try {
      return await handle(c);
    } catch (error) {
      if (error instanceof GoTrueError) return gotrueErrorResponse(c.req.raw, error);
      throw error;
    }
  };
}

/** The 400 of a wrong email or password (identical for both, so neither is revealed). */
export function invalidCredentials(): GoTrueError {
  return new GoTrueError(400, "invalid_credentials", "Invalid login credentials");
}

/** GoTrue's 422 `weak_password`, with its reasons (`length`, or `strength` for the estimate). */
export function weakPassword(message: string, reasons: string[]): GoTrueError {
  const error = new GoTrueError(422, "weak_password", message);
  error.extra = { weak_password: { reasons } };
  return error;
}
