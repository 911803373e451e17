/**
 * The release calendar (docs/calendar.md): the release dates of a user's films in a span of
 * days, in the user's region (My services), read in one query: the region, and per film of the
 * list the date each type shows there, for the films with any such date in the span.
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
  /**
   * A fingerprint of everything `read` reads for the query (the region, which films, and each
   * film's row and chosen dates as last written), in one query that returns no film: equal
   * fingerprints mean `read` would answer the same. Only the feed uses it, to skip the read.
   */
  version(userId: string, query: CalendarQuery): Promise<string>;
}

// The films of the list asked for, as every read of the calendar takes them ($1 the user, $2
// the list).
const IDS_SQL = `ids as (
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
  )`;

// A row's xmin is the transaction that last wrote it, so any write to a film's movies row or
// its chosen dates changes the fingerprint, and a film coming or going changes the ids in it.
// A write that changes nothing the calendar shows changes it too: the feed then reads the
// calendar and finds the same events (the same ETag).
const VERSION_SQL = `with ${IDS_SQL}
  select coalesce(
           (select us.region from public.user_services us where us.user_id = $1::uuid), $3::text
         ) || ' ' || md5(coalesce(string_agg(
           ids.catalog_id::text || ':' || coalesce(m.xmin::text, '') || ':' ||
             coalesce(r.xmin::text, ''), ',' order by ids.catalog_id), '')) as version
    from ids
    left join public.movies m on m.catalog_id = ids.catalog_id
    left join public.movie_release_firsts r on r.catalog_id = ids.catalog_id`;

// One row: the region, and the films of the list asked for whose chosen date of a wanted type is
// in the span, as one JSON array of [catalogId, title, year, posterPath, chosen] (one text parsed
// at once: 10-25 % faster than 500 rows with a JSON value each on the embedded store, the same on
// PostgreSQL). `firsts->'*' || firsts->region` is the date each type shows: the region's own
// where it has one, else the earliest anywhere with its region (movie_release_firsts, kept by a
// trigger on movies).
const CALENDAR_SQL = `with s as (
    select coalesce(
      (select us.region from public.user_services us where us.user_id = $1::uuid), $5::text
    ) as region
  ), ${IDS_SQL}
  select s.region, coalesce(
           json_agg(json_build_array(f."catalogId", f.title, f.year, f."posterPath", f.chosen))
             filter (where f."catalogId" is not null),
           '[]'::json)::text as films
    from s
    left join lateral (
      select m.catalog_id as "catalogId", m.title, m.year, m.poster_path as "posterPath",
             c.chosen
        from ids
        join public.movie_release_firsts r on r.catalog_id = ids.catalog_id
        join public.movies m on m.catalog_id = ids.catalog_id
       cross join lateral (
         select (r.firsts -> '*') || coalesce(r.firsts -> s.region, '{}'::jsonb) as chosen
       ) c
       where exists (
         select 1 from jsonb_each(c.chosen) d
          where d.key = any($6::text[]) and d.value ->> 0 between $3::text and $4::text
       )
    ) f on true
   group by s.region`;

/** Builds the service. */
export function createCalendarService(deps: AppDeps): CalendarService {
  const { store, config } = deps;
  const imageBase = config.tmdb.imageBaseUrl.replace(/\/+$/, "");
  return {
    async read(userId, query) {
      const [row] = await store.query<{ region: string; films: string }>(CALENDAR_SQL, [
        userId,
        query.list,
        query.from,
        query.to,
        config.tmdb.watchRegion,
        query.types,
      ]);
      const films = JSON.parse(row.films) as [
        number,
        string | null,
        number | null,
        string | null,
        CalendarFilm["chosen"],
      ][];
      const events = films.flatMap(([catalogId, title, year, posterPath, chosen]) =>
        filmEvents({
          catalogId,
          title: title ?? "",
          year: year || null,
          poster: posterPath ? `${imageBase}/w342${posterPath}` : null,
          chosen,
        }, query)
      );
      return { region: row.region, events: events.sort(byDate) };
    },
    async version(userId, query) {
      const [row] = await store.query<{ version: string }>(VERSION_SQL, [
        userId,
        query.list,
        config.tmdb.watchRegion,
      ]);
      return row.version;
    },
  };
}
