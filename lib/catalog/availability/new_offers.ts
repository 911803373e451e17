/**
 * What a refresh newly offers: for each user with the movie on My List and services, their
 * providers that list it under flatrate, free or ads in their region now and did not before
 * the refresh. Each becomes one notification, unless the same (user, movie, provider, region)
 * was notified within 30 days or the user switched the kind off.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

const STREAM_KINDS = ["flatrate", "free", "ads"];

/** A provider streaming a movie in a region: id → name and logo path. */
type Offers = Map<number, { name: string; logo: string }>;

/** The providers streaming in `region` according to TMDB's stored `results`. */
export function streamingIn(results: Record<string, unknown>, region: string): Offers {
  const offers: Offers = new Map();
  const place = Object.hasOwn(results, region) ? results[region] : null;
  if (!place || typeof place !== "object") return offers;
  for (const kind of STREAM_KINDS) {
    const list = (place as Record<string, unknown>)[kind];
    if (!Array.isArray(list)) continue;
    for (const o of list) {
      const id = o?.provider_id;
      if (!Number.isInteger(id) || id < 1 || offers.has(id)) continue;
      offers.set(id, { name: String(o.provider_name ?? ""), logo: String(o.logo_path ?? "") });
    }
  }
  return offers;
}

// Users who switched "now streaming" alerts off (user_alert_settings) are not watchers.
const WATCHERS_SQL = `select us.user_id as "userId", us.region, us.provider_ids as "providerIds"
  from public.user_services us
  join public.user_my_list l on l.user_id = us.user_id
  left join public.user_alert_settings s on s.user_id = us.user_id
 where $1 = any (l.catalog_ids) and cardinality(us.provider_ids) > 0
   and coalesce(s.now_streaming, true)`;

const INSERT_SQL = `insert into public.user_notifications
    (user_id, catalog_id, provider_id, provider_name, provider_logo, region, created_at)
  select n.user_id, $1, n.provider_id, n.name, n.logo, n.region, $2::timestamptz
    from unnest($3::uuid[], $4::integer[], $5::text[], $6::text[], $7::text[])
      as n(user_id, provider_id, name, logo, region)
   where not exists (
     select 1 from public.user_notifications p
      where p.user_id = n.user_id and p.catalog_id = $1 and p.provider_id = n.provider_id
        and p.region = n.region and p.created_at > $2::timestamptz - interval '30 days')
  returning id`;

/** Stores the notifications a refresh of `catalogId` earns; returns how many were stored. */
export async function notifyNewOffers(
  sql: Sql,
  change: {
    catalogId: number;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    now: number;
  },
): Promise<number> {
  const watchers = await sql.query<{ userId: string; region: string; providerIds: number[] }>(
    WATCHERS_SQL,
    [change.catalogId],
  );
  const cols: [string[], number[], string[], string[], string[]] = [[], [], [], [], []];
  for (const w of watchers) {
    const mine = new Set(w.providerIds.map(Number));
    const before = streamingIn(change.before, w.region);
    for (const [id, offer] of streamingIn(change.after, w.region)) {
      if (!mine.has(id) || before.has(id)) continue;
      cols[0].push(w.userId);
      cols[1].push(id);
      cols[2].push(offer.name);
      cols[3].push(offer.logo);
      cols[4].push(w.region);
    }
  }
  if (cols[0].length === 0) return 0;
  const rows = await sql.query(INSERT_SQL, [
    change.catalogId,
    new Date(change.now).toISOString(),
    ...cols,
  ]);
  return rows.length;
}
