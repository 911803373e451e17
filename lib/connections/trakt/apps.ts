/**
 * A user's own Trakt apps (docs/trakt.md, "Sign-in"): name, client id, a secret shown once and
 * kept as SHA-256, and the redirect URIs the code flow accepts exactly.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/types.ts";
import { randomSecret, secretDigest } from "./oauth_secrets.ts";

/** A user may keep this many apps. */
const MAX_APPS = 20;
/** An app lists at most this many redirect URIs. */
export const MAX_REDIRECT_URIS = 10;
/** The out-of-band redirect: the consent page shows the code instead of redirecting. */
export const OOB_REDIRECT = "urn:ietf:wg:oauth:2.0:oob";

/** An app as its owner sees it (never its secret, after the first answer). */
export interface TraktApp {
  id: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  createdAt: string;
}

/** What an app's lookup by client id finds, for the sign-in flows. */
export interface AppRecord {
  id: string;
  userId: string;
  name: string;
  secretHash: string;
  redirectUris: string[];
}

function iso(value: unknown): string {
  return new Date(value as string).toISOString();
}

function uris(value: unknown): string[] {
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

function shape(row: Record<string, unknown>): TraktApp {
  return {
    id: String(row.id),
    name: String(row.name),
    clientId: String(row.clientId),
    redirectUris: uris(row.redirectUris),
    createdAt: iso(row.createdAt),
  };
}

const COLUMNS = `id, name, client_id as "clientId", redirect_uris as "redirectUris",
  created_at as "createdAt"`;

/**
 * A new app of the user whose transaction `tx` is (`asUser`), with its secret; 409
 * `too_many_apps` past MAX_APPS.
 */
export async function createApp(
  tx: Sql,
  input: { name: string; redirectUris: string[]; now: number },
): Promise<TraktApp & { clientSecret: string }> {
  const clientId = randomSecret();
  const clientSecret = randomSecret();
  const rows = await tx.query(
    `insert into public.trakt_apps
       (id, user_id, name, client_id, secret_hash, redirect_uris, created_at)
     select $1, (select auth.uid()), $2, $3, $4, $5::jsonb, $6::timestamptz
      where (select count(*) from public.trakt_apps where user_id = (select auth.uid())) < ${MAX_APPS}
     returning ${COLUMNS}`,
    [
      crypto.randomUUID(),
      input.name,
      clientId,
      await secretDigest(clientSecret),
      JSON.stringify(input.redirectUris),
      new Date(input.now).toISOString(),
    ],
  );
  if (!rows.length) {
    throw new Problem(
      409,
      "too_many_apps",
      `You can keep at most ${MAX_APPS} apps; delete one first.`,
    );
  }
  return { ...shape(rows[0]), clientSecret };
}

/** The apps of the user whose transaction `tx` is, oldest first. */
export async function listApps(tx: Sql): Promise<TraktApp[]> {
  const rows = await tx.query(
    `select ${COLUMNS} from public.trakt_apps
      where user_id = (select auth.uid()) order by created_at, id`,
  );
  return rows.map(shape);
}

/** Deletes an app of the user whose transaction `tx` is; its tokens and codes go with it. */
export async function deleteApp(tx: Sql, id: string): Promise<void> {
  const rows = await tx.query(
    `delete from public.trakt_apps where id = $1 and user_id = (select auth.uid()) returning id`,
    [id],
  );
  if (!rows.length) throw new Problem(404, "not_found", "You have no app with this id.");
}

/** The own app whose client id this is, or undefined (a client registered at Trakt). */
export async function appByClientId(sql: Sql, clientId: string): Promise<AppRecord | undefined> {
  const [row] = await sql.query(
    `select id, user_id as "userId", name, secret_hash as "secretHash",
            redirect_uris as "redirectUris"
       from public.trakt_apps where client_id = $1`,
    [clientId],
  );
  if (!row) return undefined;
  return {
    id: String(row.id),
    userId: String(row.userId),
    name: String(row.name),
    secretHash: String(row.secretHash),
    redirectUris: uris(row.redirectUris),
  };
}

/** Whether `secret` is the app's client secret. */
export async function secretMatches(app: AppRecord, secret: unknown): Promise<boolean> {
  return typeof secret === "string" && await secretDigest(secret) === app.secretHash;
}
