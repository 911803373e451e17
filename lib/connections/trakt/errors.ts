/**
 * The errors of Trakt sign-in, in OAuth's words as Trakt answers them (docs/trakt.md, "Sign-in");
 * rendered on /trakt as `{"error","error_description"}`.
 */
import { Problem } from "@/lib/core/problem.ts";

/** A code, refresh token or client that does not fit (OAuth's `invalid_grant`, 401 on Trakt). */
export function invalidGrant(): Problem {
  return new Problem(
    401,
    "invalid_grant",
    "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  );
}

/** A client id or secret that does not name one of the user's own apps. */
export function invalidClient(status = 401): Problem {
  return new Problem(
    status,
    "invalid_client",
    "Client authentication failed: unknown client id or a wrong client secret.",
  );
}

/** A body value that is missing or malformed. */
export function invalidRequest(detail: string): Problem {
  return new Problem(400, "invalid_request", detail);
}
