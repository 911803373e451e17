-- One user's kept figures are written by one transaction at a time (docs/diary.md, "Kept on
-- write"). The year in review's periods and tallies and the watched counts are moved by several
-- statements of a transaction, each taking rows in its own order: a user's removal and a
-- movie's new runtime, both touching that user's rows, could each hold a row the other needed
-- next, and PostgreSQL ended one of them (deadlock detected). Every trigger that moves a user's
-- figures now first takes that user's advisory lock (namespace 30, the key the app's
-- lockForTransaction would build), users in one order, so such writers wait in line instead.

create or replace function public.stats_lock_users(users uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  u uuid;
begin
  foreach u in array coalesce(
    (select array_agg(distinct x order by x) from unnest(users) x where x is not null),
    '{}'::uuid[])
  loop
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(u::text, 30));
  end loop;
end
$$;

-- After a statement on the viewings or the watched rows: its users' locks, then the movies it
-- touched, at once.
create or replace function public.stats_rows_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.stats_lock_users(array(select n.user_id from changed_new n));
    perform public.stats_film_refresh(array(select n.user_id from changed_new n),
      array(select n.catalog_id from changed_new n));
  elsif tg_op = 'DELETE' then
    perform public.stats_lock_users(array(select o.user_id from changed_old o));
    perform public.stats_film_refresh(array(select o.user_id from changed_old o),
      array(select o.catalog_id from changed_old o));
  else
    perform public.stats_lock_users(
      array(select n.user_id from changed_new n) || array(select o.user_id from changed_old o));
    perform public.stats_film_refresh(
      array(select n.user_id from changed_new n) || array(select o.user_id from changed_old o),
      array(select n.catalog_id from changed_new n)
        || array(select o.catalog_id from changed_old o));
  end if;
  return null;
end
$$;

-- A movie's details changed (or it arrived, or went): its watchers' locks, then its films leave
-- every period with the old details and come back with the new. The films are read again under
-- the locks, so a watcher's own write that committed meanwhile is counted once.
create or replace function public.stats_movie_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  films public.user_stats_films[];
begin
  perform public.stats_lock_users(array(
    select f.user_id from public.user_stats_films f
     where f.catalog_id = coalesce(new.catalog_id, old.catalog_id)
    union
    select w.user_id from public.user_watched_movies w
     where w.catalog_id = coalesce(new.catalog_id, old.catalog_id)));
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

revoke execute on function public.stats_lock_users(uuid[]) from public, anon, authenticated;
revoke execute on function public.stats_rows_changed() from public, anon, authenticated;
revoke execute on function public.stats_movie_changed() from public, anon, authenticated;
