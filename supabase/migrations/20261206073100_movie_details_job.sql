-- The details job (docs/catalog.md, "The details job"): every film a user has gets its full
-- details, and the figures say how many are still being filled in.
--
-- movies: what a detail fetch appends beyond credits and videos (release dates per region and
-- type, keywords, the IMDb id), and the append set it was fetched with. A row fetched with
-- another set (or before the set was recorded: null) is fetched again by the job, so adding an
-- append to the one movie-by-id call backfills every film by itself.
--
-- details_runs: one row per run of the job, as availability_runs.
--
-- user_stats_periods.incomplete: per user and period, the films counted there whose details were
-- never fetched (no movies row, or a light one), kept on write by the year in review's triggers
-- like every other figure, so GET /api/stats reads it in the same index lookup.

alter table public.movies
  add column details_appends text,
  add column release_dates jsonb,
  add column keywords text[],
  add column imdb_id text;

create table public.details_runs (
  id uuid primary key default gen_random_uuid(),
  trigger text not null check (trigger in ('manual', 'cron', 'asked')),
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  budget integer not null check (budget > 0),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  movies_planned integer not null default 0,
  movies_refreshed integer not null default 0,
  calls integer not null default 0,
  errors integer not null default 0,
  last_error text
);
create index details_runs_started_idx on public.details_runs (started_at desc);

alter table public.details_runs enable row level security;
-- No policy: only the server reads and writes the runs.
grant all on public.details_runs to service_role;

alter table public.user_stats_periods
  add column incomplete integer not null default 0;

-- As in 20261128130100_diary_stats_on_write.sql, with `incomplete`: a film that comes or goes
-- moves it by one when its movie has no details (no row, or has_details false).
create or replace function public.stats_apply(
  added public.user_stats_films[],
  removed public.user_stats_films[],
  presence boolean,
  movie public.movies,
  use_movie boolean
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  periods public.user_stats_periods[];
  tallies public.user_stats_tallies[];
begin
  with r as (
    select a.*, 1 as s from unnest(added) a
    union all
    select b.*, -1 from unnest(removed) b
  ), rm as (
    select r.*, m.runtime, m.genres, m.directors, m.actors, m.year, m.has_details
      from r
      left join lateral (
        select mv.runtime, mv.genres, mv.directors, mv.actors, mv.year, mv.has_details
          from public.movies mv
         where not use_movie and mv.catalog_id = r.catalog_id
        union all
        select movie.runtime, movie.genres, movie.directors, movie.actors, movie.year,
               movie.has_details
         where use_movie
      ) m on true
  ), d as (
    select rm.user_id, rm.period,
      sum(case when presence then rm.s else 0 end)::integer as films,
      sum(rm.s * rm.viewings)::integer as viewings,
      sum(rm.s * rm.rewatches)::integer as rewatches,
      sum(rm.s * rm.viewings * coalesce(rm.runtime, 0))::bigint as minutes,
      sum(rm.s * rm.rating_count)::integer as rating_count,
      sum(rm.s * rm.rating_sum)::integer as rating_sum,
      sum(case when presence and not coalesce(rm.has_details, false) then rm.s else 0 end)
        ::integer as incomplete
    from rm group by rm.user_id, rm.period
  ), t as (
    select rm.user_id, rm.period, 'genre' as kind, g.name, rm.s as n
      from rm cross join unnest(rm.genres) as g(name) where presence and g.name <> ''
    union all
    select rm.user_id, rm.period, 'director', g.name, rm.s
      from rm cross join unnest(rm.directors) as g(name) where presence and g.name <> ''
    union all
    select rm.user_id, rm.period, 'actor', g.name, rm.s
      from rm cross join unnest(rm.actors) as g(name) where presence and g.name <> ''
    union all
    select rm.user_id, rm.period, 'decade', ((rm.year / 10) * 10)::text, rm.s
      from rm where presence and rm.year > 0
    union all
    select rm.user_id, rm.period, 'rating', u.i::text, rm.s * u.x
      from rm cross join unnest(rm.histogram) with ordinality as u(x, i) where u.x <> 0
    union all
    select rm.user_id, rm.period, 'month', u.i::text, rm.s * u.x
      from rm cross join unnest(rm.months) with ordinality as u(x, i) where u.x <> 0
  ), tsum as (
    select t.user_id, t.period, t.kind, t.name, sum(t.n)::integer as n
      from t group by t.user_id, t.period, t.kind, t.name
    having sum(t.n) <> 0
  )
  select (select array_agg(row(d.*)::public.user_stats_periods) from d),
         (select array_agg(row(tsum.*)::public.user_stats_tallies) from tsum)
    into periods, tallies;

  if periods is not null then
    insert into public.user_stats_periods as p
    select x.* from unnest(periods) x
     where x.films > 0 and exists (select 1 from auth.users u where u.id = x.user_id)
    on conflict (user_id, period) do update set
      films = p.films + excluded.films,
      viewings = p.viewings + excluded.viewings,
      rewatches = p.rewatches + excluded.rewatches,
      minutes = p.minutes + excluded.minutes,
      rating_count = p.rating_count + excluded.rating_count,
      rating_sum = p.rating_sum + excluded.rating_sum,
      incomplete = p.incomplete + excluded.incomplete;
    update public.user_stats_periods p set
      films = p.films + x.films,
      viewings = p.viewings + x.viewings,
      rewatches = p.rewatches + x.rewatches,
      minutes = p.minutes + x.minutes,
      rating_count = p.rating_count + x.rating_count,
      rating_sum = p.rating_sum + x.rating_sum,
      incomplete = p.incomplete + x.incomplete
      from unnest(periods) x
     where x.films <= 0 and p.user_id = x.user_id and p.period = x.period;
    delete from public.user_stats_periods p using unnest(periods) x
     where p.user_id = x.user_id and p.period = x.period and p.films <= 0;
  end if;

  if tallies is not null then
    insert into public.user_stats_tallies as t
    select x.* from unnest(tallies) x
     where x.n > 0 and exists (select 1 from auth.users u where u.id = x.user_id)
    on conflict (user_id, period, kind, name) do update set n = t.n + excluded.n;
    update public.user_stats_tallies t set n = t.n + x.n
      from unnest(tallies) x
     where x.n < 0 and t.user_id = x.user_id and t.period = x.period and t.kind = x.kind
       and t.name = x.name;
    delete from public.user_stats_tallies t using unnest(tallies) x
     where t.user_id = x.user_id and t.period = x.period and t.kind = x.kind
       and t.name = x.name and t.n <= 0;
  end if;
end
$$;

revoke execute on function public.stats_apply(public.user_stats_films[], public.user_stats_films[], boolean, public.movies, boolean) from public, anon, authenticated;

-- A movie's details arriving now moves the figures even when runtime, genres, credits and year
-- stay as the light row had them (its `incomplete` count does).
drop trigger movies_stats_update on public.movies;
create trigger movies_stats_update after update on public.movies
  for each row
  when (old.runtime is distinct from new.runtime or old.genres is distinct from new.genres
    or old.directors is distinct from new.directors or old.actors is distinct from new.actors
    or old.year is distinct from new.year or old.has_details is distinct from new.has_details)
  execute function public.stats_movie_changed();

-- The count of what is already there.
update public.user_stats_periods p set incomplete = c.n
  from (select f.user_id, f.period, count(*)::integer as n
          from public.user_stats_films f
          left join public.movies m on m.catalog_id = f.catalog_id
         where not coalesce(m.has_details, false)
         group by f.user_id, f.period) c
 where p.user_id = c.user_id and p.period = c.period;
