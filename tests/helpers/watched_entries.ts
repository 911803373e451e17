/** Requests and reads shared by the watched-entry API tests. */
import type { TestUser } from "./users.ts";

/** A JSON request of `u` (a string body is sent as it is). */
export function send(u: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** Rows of a query. */
type Rows = Record<string, unknown>[];
/** The user's stored watched rows with their history fields. */
export const rows = (
  t: { store: { query(q: string, p: unknown[]): Promise<Rows> } },
  u: TestUser,
) =>
  t.store.query(
    `select catalog_id, rating, watched_on::text, note, created_at
     from public.user_watched_movies where user_id = $1 order by catalog_id`,
    [u.id],
  );
