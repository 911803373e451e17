/**
 * The My List feed (docs/trakt.md, "Other apps"): a secret URL answering My List as the JSON
 * Radarr's "Custom Lists" import reads. Radarr's parser (RadarrListParser) reads a JSON array of
 * TMDB movie results and keeps each item whose `id` is above 0 as the TMDB id; `title` and
 * `year` are for a person reading the feed (Radarr ignores them).
 */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import { ensureConnection } from "../webhooks/settings.ts";
import { newSecret, secretDigest } from "../webhooks/secret.ts";

/** One film of the feed: the TMDB id (the catalog id), its title and year. */
export interface FeedItem {
  id: number;
  title: string;
  year: number | null;
}

/** `$SITE_URL/feeds/<secret>/mylist.json`. */
export function feedUrl(siteUrl: string, secret: string): string {
  return `${siteUrl.replace(/\/+$/, "")}/feeds/${secret}/mylist.json`;
}

/** Replaces the feed's secret (run as the user); the old URL finds nobody from this commit on. */
export async function rotateFeedSecret(tx: Sql, now: string): Promise<string> {
  await ensureConnection(tx, now);
  const secret = newSecret();
  await tx.query(
    `update public.user_connections set feed_secret = $1, feed_secret_hash = $2
      where user_id = (select auth.uid())`,
    [secret, await secretDigest(secret)],
  );
  return secret;
}

/**
 * The owner of a feed secret (one unique-index lookup of its digest) with My List in its order,
 * in one query; null for an unknown secret. A film whose row is missing still has its id.
 */
export async function readFeed(
  store: Store,
  secret: string,
): Promise<{ userId: string; items: FeedItem[] } | null> {
  const digest = await secretDigest(secret);
  const rows = await store.query<
    { userId: string; id: number | null; title: string | null; year: number | null }
  >(
    `select c.user_id::text as "userId", l.id, m.title, m.year
       from public.user_connections c
       left join lateral (
         select u.id, u.ord from public.user_my_list ml,
           unnest(ml.catalog_ids) with ordinality as u(id, ord)
          where ml.user_id = c.user_id
       ) l on true
       left join public.movies m on m.catalog_id = l.id
      where c.feed_secret_hash = $1
      order by l.ord`,
    [digest],
  );
  if (rows.length === 0) return null;
  const items = rows.filter((r) => r.id !== null && r.id > 0).map((r) => ({
    id: Number(r.id),
    title: r.title ?? "",
    year: r.year ? Number(r.year) : null,
  }));
  return { userId: rows[0].userId, items };
}
