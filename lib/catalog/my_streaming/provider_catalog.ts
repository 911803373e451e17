/**
 * The providers an instance knows per region (GET /api/providers): every provider found in the
 * stored `watch_providers` of that region under flatrate, free or ads, most stored movies first,
 * then by name. Stored data only: TMDB's provider lists are outside the allowed paths.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** One provider of a region. */
export interface RegionProvider {
  id: number;
  name: string;
  /** Logo URL at w92, or "" when TMDB has none. */
  logo: string;
  /** Stored movies it streams in the region. */
  movies: number;
}

// Odd entries (no numeric id, no name) are skipped rather than failing the list. A provider's
// name and logo are the most common among the movies that list it.
const REGION_SQL = `with offers as (
    select m.catalog_id, o.value as offer
      from public.movies m
      cross join lateral unnest(array['flatrate', 'free', 'ads']) as k(kind)
      cross join lateral jsonb_array_elements(
        case when jsonb_typeof(m.watch_providers -> $1 -> k.kind) = 'array'
          then m.watch_providers -> $1 -> k.kind else '[]'::jsonb end) as o(value)
     where m.watch_providers ? $1
  ), named as (
    select (offer ->> 'provider_id')::integer as id, offer ->> 'provider_name' as name,
      coalesce(offer ->> 'logo_path', '') as logo_path, catalog_id
      from offers
     where jsonb_typeof(offer -> 'provider_id') = 'number'
       and (offer ->> 'provider_id') ~ '^[1-9][0-9]{0,8}$'
       and coalesce(offer ->> 'provider_name', '') <> ''
  )
  select id, mode() within group (order by name) as name,
    mode() within group (order by logo_path) as logo_path,
    count(distinct catalog_id)::integer as movies
    from named group by id
   order by movies desc, name, id`;

/** The providers stored for `region`, with logos under `imageBaseUrl`. */
export async function readRegionProviders(
  sql: Sql,
  region: string,
  imageBaseUrl: string,
): Promise<RegionProvider[]> {
  const rows = await sql.query<{ id: number; name: string; logo_path: string; movies: number }>(
    REGION_SQL,
    [region],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    logo: r.logo_path ? `${imageBaseUrl}/w92${r.logo_path}` : "",
    movies: Number(r.movies),
  }));
}
