/**
 * The release calendar (docs/calendar.md): the release dates of a user's films in a span of
 * days, in the user's region (My services), read in one query of the films that have any date
 * in the span at all.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { byDate, type CalendarEvent, type CalendarFilm, filmEvents } from "./events.ts";
import type { CalendarQuery } from "./query.ts";

/** GET /api/calendar's answer. */
export interface Calendar {
  region: string;
  events: CalendarEvent[];
}

/** What the calendar's routes and the iCal feed call. */
export interface CalendarService {
  /** The user's calendar for a parsed query. */
  read(userId: string, query: CalendarQuery): Promise<Calendar>;
}

// The films of the list asked for that have a stored date anywhere in the span: an event's
// date is always one of the film's stored dates, so no other film can give one.
const FILMS_SQL = `with ids as (
    select u.id as catalog_id
      from public.user_my_list ml, unnest(ml.catalog_ids) as u(id)
     where ml.user_id = $1::uuid and $2::text in ('mylist', 'all')
    union
    select w.catalog_id from public.user_watched_movies w
     where w.user_id = $1::uuid and $2::text in ('watched', 'all')
    union
    select i.catalog_id from public.user_lists l
      join public.user_list_items i on i.list_id = l.id
     where l.user_id = $1::uuid and $2::text = 'all'
  )
  select m.catalog_id as "catalogId", m.title, m.year, m.poster_path as "posterPath",
         m.release_dates as "releaseDates"
    from ids join public.movies m on m.catalog_id = ids.catalog_id
   where m.release_dates is not null
     and exists (
       select 1 from jsonb_each(m.release_dates) r, jsonb_array_elements(r.value) d
        where d->>'date' between $3::text and $4::text
     )`;

/** Builds the service. */
export function createCalendarService(deps: AppDeps): CalendarService {
  const { store, config } = deps;
  const imageBase = config.tmdb.imageBaseUrl.replace(/\/+$/, "");
  return {
    async read(userId, query) {
      const [settings] = await store.query<{ region: string }>(
        "select region from public.user_services where user_id = $1::uuid",
        [userId],
      );
      const region = settings?.region ?? config.tmdb.watchRegion;
      const rows = await store.query<Record<string, unknown>>(FILMS_SQL, [
        userId,
        query.list,
        query.from,
        query.to,
      ]);
      const events = rows.flatMap((r) => {
        const raw = r.releaseDates;
        const film: CalendarFilm = {
          catalogId: Number(r.catalogId),
          title: String(r.title ?? ""),
          year: r.year ? Number(r.year) : null,
          poster: r.posterPath ? `${imageBase}/w342${r.posterPath}` : null,
          releases: (typeof raw === "string" ? JSON.parse(raw) : raw) as CalendarFilm["releases"],
        };
        return filmEvents(film, { region, types: query.types, from: query.from, to: query.to });
      });
      return { region, events: events.sort(byDate) };
    },
  };
}
