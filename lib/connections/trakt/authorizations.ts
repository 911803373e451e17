/**
 * The apps a user signed in to (docs/trakt.md, "Sign-in"): listed with their last use and ended
 * one by one; a password change ends them all.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/types.ts";

/** One signed-in app as its user sees it. */
export interface Authorization {
  id: string;
  app: { name: string | null; clientId: string };
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The authorizations of the user whose transaction `tx` is (`asUser`), newest first. */
export async function listAuthorizations(tx: Sql): Promise<Authorization[]> {
  const rows = await tx.query(
    `select z.id, z.client_id as "clientId", z.scope, z.created_at as "createdAt",
            z.last_used_at as "lastUsedAt", a.name
       from public.trakt_authorizations z
       left join public.trakt_apps a on a.id = z.app_id
      where z.user_id = (select auth.uid())
      order by z.created_at desc, z.id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    app: { name: row.name === null ? null : String(row.name), clientId: String(row.clientId) },
    scope: String(row.scope),
    createdAt: new Date(row.createdAt as string).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt as string).toISOString(),
  }));
}

/** Ends one authorization of the user whose transaction `tx` is: both its tokens die at once. */
export async function deleteAuthorization(tx: Sql, id: string): Promise<void> {
  const rows = await tx.query(
    `delete from public.trakt_authorizations
      where id = $1 and user_id = (select auth.uid()) returning id`,
    [id],
  );
  if (!rows.length) throw new Problem(404, "not_found", "You have no authorized app with this id.");
}
