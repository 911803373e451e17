/**
 * A user's connection settings (docs/connections.md): the webhook URL with its secret, made on
 * first read and replaced by a rotation (the old secret is dead at once), the Plex account
 * filter and whether a logged movie leaves My List.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { ConnectionSettingsPatch } from "./payload.ts";
import { newSecret, secretDigest } from "./secret.ts";

/** GET /api/me/connections. */
export interface ConnectionSettings {
  webhookUrl: string;
  /** My List as Radarr's Custom List reads it (lib/connections/feeds). */
  feedUrl: string;
  plexUsername: string | null;
  removeFromMyList: boolean;
}

/** The receivers' base: `$SITE_URL/hooks/<secret>`; each server adds its own last segment. */
export function webhookUrl(siteUrl: string, secret: string): string {
  return `${siteUrl.replace(/\/+$/, "")}/hooks/${secret}`;
}

const COLUMNS = `secret, feed_secret as "feedSecret", plex_username as "plexUsername",
  remove_from_my_list as "removeFromMyList"`;

type Row = {
  secret: string;
  feedSecret: string;
  plexUsername: string | null;
  removeFromMyList: boolean;
};

/**
 * The user's row (run as the user), made with fresh secrets when there is none yet; a row from
 * before the feed gets its feed secret here.
 */
export async function ensureConnection(tx: Sql, now: string): Promise<Row> {
  const secret = newSecret();
  const feed = newSecret();
  const feedHash = await secretDigest(feed);
  await tx.query(
    `insert into public.user_connections
       (user_id, secret, secret_hash, feed_secret, feed_secret_hash, created_at, rotated_at)
     values ((select auth.uid()), $1, $2, $3, $4, $5, $5)
     on conflict (user_id) do update
       set feed_secret = excluded.feed_secret, feed_secret_hash = excluded.feed_secret_hash
       where public.user_connections.feed_secret is null`,
    [secret, await secretDigest(secret), feed, feedHash, now],
  );
  const [row] = await tx.query<Row>(
    `select ${COLUMNS} from public.user_connections where user_id = (select auth.uid())`,
  );
  return row;
}

/** Changes the named settings (run as the user, the row made first). */
export async function updateConnection(
  tx: Sql,
  patch: ConnectionSettingsPatch,
  now: string,
): Promise<Row> {
  await ensureConnection(tx, now);
  const plex = patch.plexUsername === undefined ? undefined : patch.plexUsername || null;
  const [row] = await tx.query<Row>(
    `update public.user_connections
        set plex_username = case when $1 then $2 else plex_username end,
            remove_from_my_list = coalesce($3, remove_from_my_list)
      where user_id = (select auth.uid())
      returning ${COLUMNS}`,
    [plex !== undefined, plex ?? null, patch.removeFromMyList ?? null],
  );
  return row;
}

/** Replaces the secret (run as the user); the old one finds nobody from this commit on. */
export async function rotateSecret(tx: Sql, now: string): Promise<string> {
  await ensureConnection(tx, now);
  const secret = newSecret();
  await tx.query(
    `update public.user_connections set secret = $1, secret_hash = $2, rotated_at = $3
      where user_id = (select auth.uid())`,
    [secret, await secretDigest(secret), now],
  );
  return secret;
}
