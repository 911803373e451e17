/**
 * Errors on /trakt answer Trakt's own small JSON body, `{"error","error_description"}`, never
 * problem+json (docs/trakt.md, "Sign-in"): Trakt clients read `error` and the status.
 */
import type { Problem } from "../core/problem.ts";

/** Whether `path` is under /trakt, where every error takes Trakt's shape. */
export function isTraktPath(path: string): boolean {
  return path === "/trakt" || path.startsWith("/trakt/");
}

/** CORS as Trakt answers it: any origin, its own headers, the paging and limit headers readable. */
export const TRAKT_CORS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
  "Access-Control-Allow-Headers":
    "Content-Type, Authorization, trakt-api-key, trakt-api-version, X-Requested-With",
  "Access-Control-Expose-Headers":
    "X-Pagination-Page, X-Pagination-Limit, X-Pagination-Page-Count, X-Pagination-Item-Count, " +
    "X-Ratelimit, Retry-After, X-Sort-By, X-Sort-How, X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

/**
 * `problem` as Trakt renders an error: its status, `{"error": code, "error_description":
 * detail}`, its headers (a 401's challenge names the realm `trakt`) and CORS.
 */
export function traktErrorResponse(problem: Problem): Response {
  const headers = new Headers(problem.headers);
  for (const [k, v] of Object.entries(TRAKT_CORS)) headers.set(k, v);
  if (problem.status === 401) {
    const invalid = /error="invalid_token"/.test(headers.get("WWW-Authenticate") ?? "");
    headers.set(
      "WWW-Authenticate",
      invalid ? 'Bearer realm="trakt", error="invalid_token"' : 'Bearer realm="trakt"',
    );
  }
  headers.set("content-type", "application/json; charset=utf-8");
  const body = { ...problem.extensions, error: problem.code, error_description: problem.message };
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}
