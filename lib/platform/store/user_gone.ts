/**
 * A write that lost the race with its account's deletion: the row it inserts names a user that
 * is no longer there, which PostgreSQL refuses as a foreign-key violation on `user_id`. That is
 * the caller's token going stale under it, so it answers 401 like any other request after the
 * deletion, never a 500 (docs/identity.md).
 */
import { Problem } from "@/lib/core/problem.ts";

const FOREIGN_KEY_VIOLATION = "23503";

/** Whether `error` is a foreign-key violation on a table's reference to its user. */
export function isUserGone(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
  const constraint = String(e.constraint_name ?? e.constraint ?? "");
  return e.code === FOREIGN_KEY_VIOLATION && /user_id_fkey$/.test(constraint);
}

/** The 401 of a write whose account was deleted while it ran (the shape of every API 401). */
export function userGone(cause?: unknown): Problem {
  return new Problem(401, "unauthorized", "This account has been deleted.", {
    headers: { "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"' },
    cause,
  });
}
