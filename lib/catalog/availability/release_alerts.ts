/**
 * Release alerts (docs/availability.md, "Release alerts"): after its refreshes, each run reads
 * the stored release dates of every My List film of users with services, refreshed in this run
 * or not, and alerts each such user whose region's release of a kind they keep on is today or
 * in the 3 days before (UTC): in theaters (TMDB's types 2 and 3), on digital (4), on disc (5).
 * A kind's date is its earliest in the region, as the calendar shows it; only the user's own
 * region counts (never the calendar's fallback to another region). One statement; the unique
 * index makes each (user, film, kind, region) alert once, ever.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** A release this many days before today (UTC) still counts as just out. */
const JUST_OUT_DAYS = 3;

// Each (film, region) of the entries is read once, however many users save it: the dates of a
// film are one jsonb value, and reading it per entry took 2.5 times as long at 10 entries a film.
const INSERT_SQL = `with kinds(kind, release_type, codes) as (
    values ('in_theaters', 'theatrical', array['2', '3']), ('on_digital', 'digital', array['4']),
           ('on_physical', 'physical', array['5'])
  ), entries as (
    select distinct us.user_id, us.region, x.catalog_id,
           array_remove(array[
             case when coalesce(s.in_theaters, true) then 'in_theaters' end,
             case when coalesce(s.on_digital, true) then 'on_digital' end,
             case when coalesce(s.on_physical, false) then 'on_physical' end
           ], null) as wanted
      from public.user_services us
      join public.user_my_list l on l.user_id = us.user_id
      cross join lateral unnest(l.catalog_ids) as x(catalog_id)
      left join public.user_alert_settings s on s.user_id = us.user_id
     where cardinality(us.provider_ids) > 0
  ), pairs as (
    select distinct e.catalog_id, e.region from entries e
  ), due as (
    select p.catalog_id, p.region, k.kind, k.release_type,
           min(d.value ->> 'date') as release_date
      from pairs p
      join public.movies m on m.catalog_id = p.catalog_id and m.release_dates is not null
      cross join lateral jsonb_array_elements(
        case when jsonb_typeof(m.release_dates -> p.region) = 'array'
          then m.release_dates -> p.region else '[]'::jsonb end) d
      join kinds k on d.value ->> 'type' = any (k.codes)
     group by p.catalog_id, p.region, k.kind, k.release_type
    having min(d.value ->> 'date') between $1::text and $2::text
  )
  insert into public.user_notifications
    (user_id, kind, catalog_id, region, release_type, release_date, created_at)
  select e.user_id, d.kind, d.catalog_id, d.region, d.release_type, d.release_date::date,
         $3::timestamptz
    from due d
    join entries e on e.catalog_id = d.catalog_id and e.region = d.region
     and d.kind = any (e.wanted)
  on conflict (user_id, catalog_id, kind, region)
    where kind in ('in_theaters', 'on_digital', 'on_physical') do nothing
  returning id`;

/** Stores the release alerts due at `now` (ms); returns how many are new. */
export async function notifyReleases(sql: Sql, options: { now: number }): Promise<number> {
  const at = new Date(options.now).toISOString();
  const from = new Date(options.now - JUST_OUT_DAYS * 86_400_000).toISOString().slice(0, 10);
  // Compared as text (stored as YYYY-MM-DD): no stored value can make the statement fail.
  const rows = await sql.query(INSERT_SQL, [from, at.slice(0, 10), at]);
  return rows.length;
}
