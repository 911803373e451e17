-- Deleting an account with a long history took 9 s on PostgreSQL (100,000 films, each with a
-- viewing), past the store's 5 s bound, so DELETE /api/account answered 503 and kept the rows:
-- the triggers that keep the year in review and the watched counts (docs/diary.md, docs/lists.md)
-- recomputed every film's figures as its rows went, and the watched rows' cascades into the
-- viewings and the films' figures ran a query per row. None of that is needed when the whole
-- account goes, its kept figures included. public.delete_user_rows now names the user it is
-- deleting for the rest of its transaction, and those triggers skip a deletion made only of
-- that user's rows; the rows other tables point at go after them, so the cascades find nothing.

-- Whether every one of `users` is the account public.delete_user_rows is deleting in this
-- transaction (the setting is transaction-local and only that function sets it).
create or replace function public.stats_user_leaving(users uuid[])
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.current_setting('movies.deleting_user', true), '') <> ''
    and not exists (
      select 1 from pg_catalog.unnest(users) as u
       where u::text is distinct from pg_catalog.current_setting('movies.deleting_user', true))
$$;

create or replace function public.delete_user_rows(target_user uuid)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  fk record;
begin
  perform pg_catalog.set_config('movies.deleting_user', target_user::text, true);
  -- Tables another table points at last: a viewing before its watched row.
  for fk in
    select n.nspname as schema_name, c.relname as table_name, a.attname as column_name
    from pg_catalog.pg_constraint as k
    join pg_catalog.pg_class as c on c.oid = k.conrelid
    join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute as a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.contype = 'f'
      and k.confrelid = 'auth.users'::pg_catalog.regclass
      and pg_catalog.array_length(k.conkey, 1) = 1
      and n.nspname = 'public'
    order by exists (
      select 1 from pg_catalog.pg_constraint as r
       where r.contype = 'f' and r.confrelid = c.oid and r.conrelid <> c.oid), c.relname
  loop
    execute pg_catalog.format('delete from %I.%I where %I = $1',
      fk.schema_name, fk.table_name, fk.column_name)
      using target_user;
  end loop;
  perform pg_catalog.set_config('movies.deleting_user', '', true);
end
$$;

create or replace function public.stats_rows_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The account is going: its kept figures go with it (public.delete_user_rows).
  -- (Nested: the old rows' table exists only in a trigger on a deletion or an update.)
  if tg_op = 'DELETE' then
    if public.stats_user_leaving(array(select o.user_id from changed_old o)) then
      return null;
    end if;
  end if;
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

create or replace function public.stats_films_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The account is going: its kept figures go with it (public.delete_user_rows).
  -- (Nested: the old rows' table exists only in a trigger on a deletion or an update.)
  if tg_op = 'DELETE' then
    if public.stats_user_leaving(array(select o.user_id from changed_old o)) then
      return null;
    end if;
  end if;
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

create or replace function public.watched_counts_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  deltas public.user_watched_counts[];
begin
  -- The account is going: its kept figures go with it (public.delete_user_rows).
  -- (Nested: the old rows' table exists only in a trigger on a deletion or an update.)
  if tg_op = 'DELETE' then
    if public.stats_user_leaving(array(select o.user_id from counts_old o)) then
      return null;
    end if;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(row(d.*)::public.user_watched_counts order by d.user_id, d.period)
      into deltas
      from (
        select r.user_id, p.period,
          sum(r.s)::integer as movies,
          sum(r.s * coalesce(m.runtime, 0))::bigint as minutes,
          sum(case when r.rating is null then 0 else r.s end)::integer as rated,
          sum(r.s * coalesce(r.rating, 0))::integer as rating_sum
        from (select n.user_id, n.catalog_id, n.watched_on, n.rating, 1 as s from counts_new n) r
        left join public.movies m on m.catalog_id = r.catalog_id
        cross join lateral (
          select 0 as period
          union all
          select extract(year from r.watched_on)::integer where r.watched_on is not null
        ) p
        group by r.user_id, p.period
        having (sum(r.s), sum(r.s * coalesce(m.runtime, 0)), sum(r.s * coalesce(r.rating, 0)),
          sum(case when r.rating is null then 0 else r.s end)) <> (0, 0, 0, 0)
      ) d;
  elsif tg_op = 'DELETE' then
    select array_agg(row(d.*)::public.user_watched_counts order by d.user_id, d.period)
      into deltas
      from (
        select r.user_id, p.period,
          sum(r.s)::integer as movies,
          sum(r.s * coalesce(m.runtime, 0))::bigint as minutes,
          sum(case when r.rating is null then 0 else r.s end)::integer as rated,
          sum(r.s * coalesce(r.rating, 0))::integer as rating_sum
        from (select o.user_id, o.catalog_id, o.watched_on, o.rating, -1 as s from counts_old o) r
        left join public.movies m on m.catalog_id = r.catalog_id
        cross join lateral (
          select 0 as period
          union all
          select extract(year from r.watched_on)::integer where r.watched_on is not null
        ) p
        group by r.user_id, p.period
        having (sum(r.s), sum(r.s * coalesce(m.runtime, 0)), sum(r.s * coalesce(r.rating, 0)),
          sum(case when r.rating is null then 0 else r.s end)) <> (0, 0, 0, 0)
      ) d;
  else
    select array_agg(row(d.*)::public.user_watched_counts order by d.user_id, d.period)
      into deltas
      from (
        select r.user_id, p.period,
          sum(r.s)::integer as movies,
          sum(r.s * coalesce(m.runtime, 0))::bigint as minutes,
          sum(case when r.rating is null then 0 else r.s end)::integer as rated,
          sum(r.s * coalesce(r.rating, 0))::integer as rating_sum
        from (select n.user_id, n.catalog_id, n.watched_on, n.rating, 1 as s from counts_new n
          union all
          select o.user_id, o.catalog_id, o.watched_on, o.rating, -1 as s from counts_old o) r
        left join public.movies m on m.catalog_id = r.catalog_id
        cross join lateral (
          select 0 as period
          union all
          select extract(year from r.watched_on)::integer where r.watched_on is not null
        ) p
        group by r.user_id, p.period
        having (sum(r.s), sum(r.s * coalesce(m.runtime, 0)), sum(r.s * coalesce(r.rating, 0)),
          sum(case when r.rating is null then 0 else r.s end)) <> (0, 0, 0, 0)
      ) d;
  end if;
  perform public.watched_counts_apply(deltas);
  return null;
end
$$;

revoke execute on function public.stats_user_leaving(uuid[]) from public, anon, authenticated;
revoke execute on function public.delete_user_rows(uuid) from public, anon, authenticated;
grant execute on function public.delete_user_rows(uuid) to service_role;
revoke execute on function public.stats_rows_changed() from public, anon, authenticated;
revoke execute on function public.stats_films_changed() from public, anon, authenticated;
revoke execute on function public.watched_counts_changed() from public, anon, authenticated;
