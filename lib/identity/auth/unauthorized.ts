/** The one 401 of the API, shared by token verification, sessions and the HTTP layer. */
import { Problem } from "@/lib/core/problem.ts";

/** A 401 for a bad or missing token (RFC 6750: `invalid_token` only when one was sent). */
export function unauthorized(
  detail = "A valid bearer access token is required.",
  options: { invalidToken?: boolean } = {},
): Problem {
  const challenge = options.invalidToken
    ? 'Bearer realm="api", error="invalid_token"'
    : 'Bearer realm="api"';
  return new Problem(401, "unauthorized", detail, { headers: { "WWW-Authenticate": challenge } });
}
