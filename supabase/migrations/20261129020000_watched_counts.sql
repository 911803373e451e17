-- The watched list's numbers kept on write (docs/lists.md): a list page's `total` and the
-- watched page's stats strip read one or two rows instead of counting the whole history, so a
-- page costs the same at 100 films and at 100,000. Exact at every commit: triggers in the
-- writing transaction move the counts by the difference each statement makes, whichever
-- writer it is (the lists service, the history import, the diary, webhooks, account deletion).
--
-- A period is 0 for the whole list, or a year for the films whose watch date falls in it (an
-- undated film counts in 0 only). Per period: films, their known runtimes in minutes, the
-- rated films and the sum of their ratings. A period whose count falls to zero is deleted.
-- The top genres come from the year in review's tallies (period 0, kind 'genre').

create table public.user_watched_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  period integer not null check (period >= 0),
  movies integer not null,
  minutes bigint not null,
  rated integer not null,
  rating_sum integer not null,
  primary key (user_id, period)
);

alter table public.user_watched_counts enable row level security;

-- The owner reads their own counts; only the triggers below (security definer) write them.
create policy user_watched_counts_select on public.user_watched_counts for select to authenticated
  using (user_id = (select auth.uid()));

grant select on public.user_watched_counts to authenticated;
grant all on public.user_watched_counts to service_role;

-- A movie's runtime changing finds its watchers by this index, not by reading every list.
create index if not exists user_watched_movies_catalog_idx
  on public.user_watched_movies (catalog_id);

-- Moves the users' periods by `deltas` (already summed per user and period), users in one order
-- (so two writers never wait on each other's rows in a cycle). A user no longer there (an
-- account being deleted, its rows going by cascade) gets no row.
create or replace function public.watched_counts_apply(deltas public.user_watched_counts[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if deltas is null then
    return;
  end if;
  insert into public.user_watched_counts as c
  select x.* from unnest(deltas) x
   where exists (select 1 from auth.users u where u.id = x.user_id)
   order by x.user_id, x.period
  on conflict (user_id, period) do update set
    movies = c.movies + excluded.movies,
    minutes = c.minutes + excluded.minutes,
    rated = c.rated + excluded.rated,
    rating_sum = c.rating_sum + excluded.rating_sum;
  delete from public.user_watched_counts c using unnest(deltas) x
   where c.user_id = x.user_id and c.period = x.period and c.movies <= 0;
end
$$;

-- After a statement on the watched rows: the rows it added count +1, the rows it removed -1,
-- summed per user and period straight from the transition tables (a 20,000-row insert is one
-- aggregate, not 20,000 row copies).
create or replace function public.watched_counts_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  deltas public.user_watched_counts[];
begin
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

-- A movie's runtime changed (or the movie arrived, or went): every watcher's minutes move by
-- the difference, in the whole list's period and in the year of their watch date.
create or replace function public.watched_counts_movie_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  delta bigint;
begin
  delta := coalesce(case when tg_op = 'DELETE' then null else new.runtime end, 0)
    - coalesce(case when tg_op = 'INSERT' then null else old.runtime end, 0);
  if delta = 0 then
    return null;
  end if;
  -- The rows are locked in (user, period) order first, as every writer takes them, so two
  -- movies' changes and a user's own writes never wait on each other in a cycle.
  perform 1 from public.user_watched_counts c
    join (
      select w.user_id, p.period
        from public.user_watched_movies w
        cross join lateral (
          select 0 as period
          union all
          select extract(year from w.watched_on)::integer where w.watched_on is not null
        ) p
       where w.catalog_id = coalesce(new.catalog_id, old.catalog_id)
    ) k on c.user_id = k.user_id and c.period = k.period
   order by c.user_id, c.period
     for update of c;
  update public.user_watched_counts c set minutes = c.minutes + delta
    from public.user_watched_movies w
    cross join lateral (
      select 0 as period
      union all
      select extract(year from w.watched_on)::integer where w.watched_on is not null
    ) p
   where w.catalog_id = coalesce(new.catalog_id, old.catalog_id)
     and c.user_id = w.user_id and c.period = p.period;
  return null;
end
$$;

revoke execute on function public.watched_counts_apply(public.user_watched_counts[]) from public, anon, authenticated;
revoke execute on function public.watched_counts_changed() from public, anon, authenticated;
revoke execute on function public.watched_counts_movie_changed() from public, anon, authenticated;

-- Named to fire after the year in review's triggers (triggers fire in name order), as on the
-- movies table: every writer takes the year in review's rows first, then these, so a user's
-- write and a movie's new details never wait on each other in a cycle.
create trigger user_watched_movies_totals_insert after insert on public.user_watched_movies
  referencing new table as counts_new
  for each statement execute function public.watched_counts_changed();
create trigger user_watched_movies_totals_update after update on public.user_watched_movies
  referencing old table as counts_old new table as counts_new
  for each statement execute function public.watched_counts_changed();
create trigger user_watched_movies_totals_delete after delete on public.user_watched_movies
  referencing old table as counts_old
  for each statement execute function public.watched_counts_changed();

create trigger movies_watched_counts_insert after insert on public.movies
  for each row when (coalesce(new.runtime, 0) <> 0)
  execute function public.watched_counts_movie_changed();
create trigger movies_watched_counts_update after update on public.movies
  for each row when (old.runtime is distinct from new.runtime)
  execute function public.watched_counts_movie_changed();
create trigger movies_watched_counts_delete after delete on public.movies
  for each row when (coalesce(old.runtime, 0) <> 0)
  execute function public.watched_counts_movie_changed();

-- The counts of what is already there.
insert into public.user_watched_counts (user_id, period, movies, minutes, rated, rating_sum)
select w.user_id, p.period, count(*)::integer,
  coalesce(sum(coalesce(m.runtime, 0)), 0)::bigint,
  count(w.rating)::integer, coalesce(sum(w.rating), 0)::integer
  from public.user_watched_movies w
  left join public.movies m on m.catalog_id = w.catalog_id
  cross join lateral (
    select 0 as period
    union all
    select extract(year from w.watched_on)::integer where w.watched_on is not null
  ) p
 group by w.user_id, p.period;
