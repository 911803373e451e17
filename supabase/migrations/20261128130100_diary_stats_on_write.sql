-- The year in review kept up to date on write (docs/diary.md): GET /api/stats and /stats/YYYY
-- read a few index lookups instead of aggregating every viewing of the year. Exact at every
-- commit: triggers in the writing transaction keep three tables in step with the viewings, the
-- watched rows and the movies' details.
--
-- A period is a year, or 0 for all time. What a period counts is its viewings plus, for a
-- watched movie without any viewing, the watched row once at its date (all time counts an
-- undated one too).
--   user_stats_films    one row per movie and period: its viewings, rewatches, ratings, months,
--                       best rating, first and last date (recomputed from the movie's own rows
--                       whenever they change);
--   user_stats_periods  one row per period: films, viewings, rewatches, minutes, rating sums;
--   user_stats_tallies  counts by name per period: films by genre, director, actor and decade,
--                       viewings by rating and by month.
-- The last two change by the difference a film row makes (statement triggers over transition
-- tables), and by a movie's new details (its runtime, genres, directors, actors or year).

create table public.user_stats_films (
  user_id uuid not null references auth.users (id) on delete cascade,
  period integer not null check (period >= 0),
  catalog_id integer not null,
  viewings integer not null,
  rewatches integer not null,
  rating_count integer not null,
  rating_sum integer not null,
  histogram integer[] not null,
  months integer[] not null,
  best smallint,
  first_on date,
  last_on date,
  primary key (user_id, period, catalog_id),
  foreign key (user_id, catalog_id)
    references public.user_watched_movies (user_id, catalog_id) on delete cascade
);
create index user_stats_films_movie_idx on public.user_stats_films (user_id, catalog_id);
create index user_stats_films_catalog_idx on public.user_stats_films (catalog_id);
-- Top rated, the first and the last watch of a period: each the head of an index.
create index user_stats_films_top_idx on public.user_stats_films
  (user_id, period, best desc, viewings desc, last_on desc nulls last, catalog_id)
  where best is not null;
create index user_stats_films_first_idx on public.user_stats_films
  (user_id, period, first_on, catalog_id) where first_on is not null;
create index user_stats_films_last_idx on public.user_stats_films
  (user_id, period, last_on desc, catalog_id desc) where last_on is not null;

create table public.user_stats_periods (
  user_id uuid not null references auth.users (id) on delete cascade,
  period integer not null check (period >= 0),
  films integer not null,
  viewings integer not null,
  rewatches integer not null,
  minutes bigint not null,
  rating_count integer not null,
  rating_sum integer not null,
  primary key (user_id, period)
);

create table public.user_stats_tallies (
  user_id uuid not null references auth.users (id) on delete cascade,
  period integer not null check (period >= 0),
  kind text not null check (kind in ('genre', 'director', 'actor', 'decade', 'rating', 'month')),
  name text not null,
  n integer not null,
  primary key (user_id, period, kind, name)
);
-- The top ten of a kind: the head of the index.
create index user_stats_tallies_top_idx on public.user_stats_tallies
  (user_id, period, kind, n desc, name);

alter table public.user_stats_films enable row level security;
alter table public.user_stats_periods enable row level security;
alter table public.user_stats_tallies enable row level security;

-- The owner reads their own figures; only the triggers below (security definer) write them.
create policy user_stats_films_select on public.user_stats_films for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_stats_periods_select on public.user_stats_periods for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_stats_tallies_select on public.user_stats_tallies for select to authenticated
  using (user_id = (select auth.uid()));

grant select on public.user_stats_films to authenticated;
grant select on public.user_stats_periods to authenticated;
grant select on public.user_stats_tallies to authenticated;
grant all on public.user_stats_films to service_role;
grant all on public.user_stats_periods to service_role;
grant all on public.user_stats_tallies to service_role;

-- The film rows per period of the given (user, movie) pairs, computed from their viewings (or
-- their viewing-less watched rows) in one query. A user no longer there (an account being
-- deleted, its rows going by cascade) gets none.
create or replace function public.stats_film_rows(users uuid[], movies integer[])
returns setof public.user_stats_films
language sql
stable
security definer
set search_path = ''
as $$
  with k as (
    select distinct k.u, k.m from unnest(users, movies) as k(u, m)
     where exists (select 1 from auth.users a where a.id = k.u)
  ), s as (
    select k.u, k.m, v.watched_on, v.rating, v.rewatch
      from k join public.user_viewings v on v.user_id = k.u and v.catalog_id = k.m
    union all
    select k.u, k.m, w.watched_on, w.rating, false
      from k join public.user_watched_movies w on w.user_id = k.u and w.catalog_id = k.m
     where not exists (select 1 from public.user_viewings x
                        where x.user_id = k.u and x.catalog_id = k.m)
  )
  select s.u, p.period, s.m,
    count(*)::integer,
    (count(*) filter (where s.rewatch))::integer,
    count(s.rating)::integer,
    coalesce(sum(s.rating), 0)::integer,
    array[
      (count(*) filter (where s.rating = 1))::integer,
      (count(*) filter (where s.rating = 2))::integer,
      (count(*) filter (where s.rating = 3))::integer,
      (count(*) filter (where s.rating = 4))::integer,
      (count(*) filter (where s.rating = 5))::integer,
      (count(*) filter (where s.rating = 6))::integer,
      (count(*) filter (where s.rating = 7))::integer,
      (count(*) filter (where s.rating = 8))::integer,
      (count(*) filter (where s.rating = 9))::integer,
      (count(*) filter (where s.rating = 10))::integer
    ],
    array[
      (count(*) filter (where extract(month from s.watched_on) = 1))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 2))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 3))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 4))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 5))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 6))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 7))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 8))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 9))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 10))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 11))::integer,
      (count(*) filter (where extract(month from s.watched_on) = 12))::integer
    ],
    max(s.rating)::smallint,
    min(s.watched_on),
    max(s.watched_on)
  from s
  cross join lateral (
    select 0 as period
    union all
    select extract(year from s.watched_on)::integer where s.watched_on is not null
  ) p
  group by s.u, s.m, p.period
$$;

-- Adds `added` and takes away `removed` (film rows) from the periods and tallies. `presence`:
-- the films themselves come or go (their names and the film count change); else only their
-- numbers change. `movie` (with `use_movie`) stands for the movies row the details come from.
-- A count that falls to zero is deleted; a decrease never creates a row (after an account's
-- rows were deleted in any order, nothing is left behind).
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
    select r.*, m.runtime, m.genres, m.directors, m.actors, m.year
      from r
      left join lateral (
        select mv.runtime, mv.genres, mv.directors, mv.actors, mv.year
          from public.movies mv
         where not use_movie and mv.catalog_id = r.catalog_id
        union all
        select movie.runtime, movie.genres, movie.directors, movie.actors, movie.year
         where use_movie
      ) m on true
  ), d as (
    select rm.user_id, rm.period,
      sum(case when presence then rm.s else 0 end)::integer as films,
      sum(rm.s * rm.viewings)::integer as viewings,
      sum(rm.s * rm.rewatches)::integer as rewatches,
      sum(rm.s * rm.viewings * coalesce(rm.runtime, 0))::bigint as minutes,
      sum(rm.s * rm.rating_count)::integer as rating_count,
      sum(rm.s * rm.rating_sum)::integer as rating_sum
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
      rating_sum = p.rating_sum + excluded.rating_sum;
    update public.user_stats_periods p set
      films = p.films + x.films,
      viewings = p.viewings + x.viewings,
      rewatches = p.rewatches + x.rewatches,
      minutes = p.minutes + x.minutes,
      rating_count = p.rating_count + x.rating_count,
      rating_sum = p.rating_sum + x.rating_sum
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

-- Brings the film rows of the given (user, movie) pairs up to date in three statements (their
-- own trigger then moves the totals once).
create or replace function public.stats_film_refresh(users uuid[], movies integer[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  fresh public.user_stats_films[];
begin
  if pg_catalog.cardinality(users) = 0 then
    return;
  end if;
  fresh := array(select r from public.stats_film_rows(users, movies) r);
  delete from public.user_stats_films f
   using (select distinct k.u, k.m from unnest(users, movies) as k(u, m)) k
   where f.user_id = k.u and f.catalog_id = k.m
     and not exists (select 1 from unnest(fresh) x
                      where x.user_id = f.user_id and x.catalog_id = f.catalog_id
                        and x.period = f.period);
  insert into public.user_stats_films as f
  select x.* from unnest(fresh) x
  on conflict (user_id, period, catalog_id) do update set
    viewings = excluded.viewings,
    rewatches = excluded.rewatches,
    rating_count = excluded.rating_count,
    rating_sum = excluded.rating_sum,
    histogram = excluded.histogram,
    months = excluded.months,
    best = excluded.best,
    first_on = excluded.first_on,
    last_on = excluded.last_on
  where (f.viewings, f.rewatches, f.rating_count, f.rating_sum, f.histogram, f.months, f.best,
         f.first_on, f.last_on)
    is distinct from (excluded.viewings, excluded.rewatches, excluded.rating_count,
         excluded.rating_sum, excluded.histogram, excluded.months, excluded.best,
         excluded.first_on, excluded.last_on);
end
$$;

-- After a statement on the viewings or the watched rows: the movies it touched, at once.
create or replace function public.stats_rows_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.stats_film_refresh(array(select n.user_id from changed_new n),
      array(select n.catalog_id from changed_new n));
  elsif tg_op = 'DELETE' then
    perform public.stats_film_refresh(array(select o.user_id from changed_old o),
      array(select o.catalog_id from changed_old o));
  else
    perform public.stats_film_refresh(
      array(select n.user_id from changed_new n) || array(select o.user_id from changed_old o),
      array(select n.catalog_id from changed_new n)
        || array(select o.catalog_id from changed_old o));
  end if;
  return null;
end
$$;

-- After a statement on the film rows: the totals move by the difference.
create or replace function public.stats_films_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.stats_apply(
      array(select row(n.*)::public.user_stats_films from changed_new n),
      null::public.user_stats_films[], true, null::public.movies, false);
  elsif tg_op = 'DELETE' then
    perform public.stats_apply(null::public.user_stats_films[],
      array(select row(o.*)::public.user_stats_films from changed_old o),
      true, null::public.movies, false);
  else
    perform public.stats_apply(
      array(select row(n.*)::public.user_stats_films from changed_new n),
      array(select row(o.*)::public.user_stats_films from changed_old o),
      false, null::public.movies, false);
  end if;
  return null;
end
$$;

-- A movie's details changed (or it arrived, or went): its films leave every period with the
-- old details and come back with the new.
create or replace function public.stats_movie_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  films public.user_stats_films[];
begin
  films := array(select f from public.user_stats_films f
                  where f.catalog_id = coalesce(new.catalog_id, old.catalog_id));
  if pg_catalog.cardinality(films) = 0 then
    return null;
  end if;
  perform public.stats_apply(null::public.user_stats_films[], films, true,
    case when tg_op = 'INSERT' then null::public.movies else old end, true);
  perform public.stats_apply(films, null::public.user_stats_films[], true,
    case when tg_op = 'DELETE' then null::public.movies else new end, true);
  return null;
end
$$;

revoke execute on function public.stats_film_rows(uuid[], integer[]) from public, anon, authenticated;
revoke execute on function public.stats_apply(public.user_stats_films[], public.user_stats_films[], boolean, public.movies, boolean) from public, anon, authenticated;
revoke execute on function public.stats_film_refresh(uuid[], integer[]) from public, anon, authenticated;
revoke execute on function public.stats_rows_changed() from public, anon, authenticated;
revoke execute on function public.stats_films_changed() from public, anon, authenticated;
revoke execute on function public.stats_movie_changed() from public, anon, authenticated;

create trigger user_viewings_stats_insert after insert on public.user_viewings
  referencing new table as changed_new
  for each statement execute function public.stats_rows_changed();
create trigger user_viewings_stats_update after update on public.user_viewings
  referencing old table as changed_old new table as changed_new
  for each statement execute function public.stats_rows_changed();
create trigger user_viewings_stats_delete after delete on public.user_viewings
  referencing old table as changed_old
  for each statement execute function public.stats_rows_changed();

create trigger user_watched_movies_stats_insert after insert on public.user_watched_movies
  referencing new table as changed_new
  for each statement execute function public.stats_rows_changed();
create trigger user_watched_movies_stats_update after update on public.user_watched_movies
  referencing old table as changed_old new table as changed_new
  for each statement execute function public.stats_rows_changed();
create trigger user_watched_movies_stats_delete after delete on public.user_watched_movies
  referencing old table as changed_old
  for each statement execute function public.stats_rows_changed();

create trigger user_stats_films_insert after insert on public.user_stats_films
  referencing new table as changed_new
  for each statement execute function public.stats_films_changed();
create trigger user_stats_films_update after update on public.user_stats_films
  referencing old table as changed_old new table as changed_new
  for each statement execute function public.stats_films_changed();
create trigger user_stats_films_delete after delete on public.user_stats_films
  referencing old table as changed_old
  for each statement execute function public.stats_films_changed();

create trigger movies_stats_insert after insert on public.movies
  for each row execute function public.stats_movie_changed();
create trigger movies_stats_update after update on public.movies
  for each row
  when (old.runtime is distinct from new.runtime or old.genres is distinct from new.genres
    or old.directors is distinct from new.directors or old.actors is distinct from new.actors
    or old.year is distinct from new.year)
  execute function public.stats_movie_changed();
create trigger movies_stats_delete after delete on public.movies
  for each row execute function public.stats_movie_changed();

-- The figures of what is already there.
select public.stats_film_refresh(array(select w.user_id from public.user_watched_movies w),
  array(select w.catalog_id from public.user_watched_movies w));
