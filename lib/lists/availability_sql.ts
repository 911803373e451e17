/**
 * "Available to me" inside a list read (docs/availability.md): the movie's stored providers
 * (`m.watch_providers`) for the user's region (`us`, their `user_services` row) that are theirs,
 * under flatrate, free or ads. Plain SQL fragments, so the read stays one statement.
 */

/** Joins the user's services row as `us` (`$1` is the user). */
export const SERVICES_JOIN = `left join public.user_services us on us.user_id = $1::uuid`;

// One row per offer of one of my providers; ids compared as text, so an odd entry (no id, a
// string) never fails the read. Kinds in the order people prefer them: included, free, ads.
const MY_OFFERS = `select (o.value ->> 'provider_id')::integer as id,
        o.value ->> 'provider_name' as name, k.kind, k.ord as kind_ord, o.ord
      from unnest(array['flatrate', 'free', 'ads']) with ordinality as k(kind, ord)
      cross join lateral jsonb_array_elements(
        case when jsonb_typeof(m.watch_providers -> us.region -> k.kind) = 'array'
          then m.watch_providers -> us.region -> k.kind else '[]'::jsonb end)
        with ordinality as o(value, ord)
     where (o.value ->> 'provider_id') = any (us.provider_ids::text[])`;

/** The filter of `available=mine`. */
export const AVAILABLE_FILTER = `\n    and exists (${MY_OFFERS})`;

/** The `availability` column: `[{id, name, kind}]`, each provider once, at its best kind. */
export const AVAILABILITY_COLUMN = `coalesce((select jsonb_agg(jsonb_build_object(
        'id', a.id, 'name', a.name, 'kind', a.kind) order by a.kind_ord, a.ord)
      from (select distinct on (id) * from (${MY_OFFERS}) offers
        order by id, kind_ord, ord) a), '[]'::jsonb) as availability`;

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
