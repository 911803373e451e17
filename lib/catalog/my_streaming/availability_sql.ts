/**
 * "Available to me" inside a list read (docs/availability.md): the streaming offers
 * (`public.movie_streaming_offers`, kept in step with each movie's stored providers) in the
 * user's region from one of their providers (their `user_services` row; `$1` is the user).
 * Plain SQL fragments, so the read stays one statement. My offers are read once by index on
 * (region, provider) and hash-joined to the list, not looked up card by card.
 */

// Every stored offer of my providers in my region, each provider once per movie at its best
// kind (flatrate, free, ads: the table holds only that one).
const MY_OFFERS = `public.user_services us
      join public.movie_streaming_offers so
        on so.region = us.region and so.provider_id = any (us.provider_ids)
     where us.user_id = $1::uuid`;

/** The filter of `available=mine`. */
export const AVAILABLE_FILTER =
  `\n    and l.catalog_id in (select so.catalog_id from ${MY_OFFERS})`;

/** Joins each movie's offers of mine as `av` (`l.catalog_id` the card's movie). */
export const AVAILABILITY_JOIN = `left join (select so.catalog_id, jsonb_agg(jsonb_build_object(
        'id', so.provider_id, 'name', so.provider_name, 'kind', so.kind)
        order by so.kind_ord, so.ord) as availability
      from ${MY_OFFERS}
     group by so.catalog_id) av on av.catalog_id = l.catalog_id`;

/** The `availability` column: `[{id, name, kind}]`, best kind first, then TMDB's order. */
export const AVAILABILITY_COLUMN = `coalesce(av.availability, '[]'::jsonb) as availability`;

/** One provider a card is available on. */
export interface Availability {
  id: number;
  name: string;
  kind: "flatrate" | "free" | "ads";
}

/** Reads the `availability` column (jsonb: an array, or its text on some drivers). */
export function toAvailability(value: unknown): Availability[] {
  const list = typeof value === "string" ? JSON.parse(value) : value;
  return (Array.isArray(list) ? list : []).map((a) => ({
    id: Number(a.id),
    name: String(a.name ?? ""),
    kind: a.kind,
  }));
}
