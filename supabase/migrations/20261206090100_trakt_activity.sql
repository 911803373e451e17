-- What GET /trakt/sync/last_activities reads (docs/trakt.md, "Reads"): per user, when each kind
-- of data last changed, kept by triggers in the writing transaction, so the time moves whichever
-- path wrote (the website, /api, /trakt, a history import, a webhook, a scrobble). A Trakt client
-- compares each time with the one it kept and syncs only what moved, so a time must move on
-- every change: it is the transaction's time in milliseconds, and at least 1 ms past the last.
--
-- Kinds: watched (the watched list and the diary's viewings), rated (a watched film's rating),
-- watchlisted (My List), paused (playback points; /trakt's scrobbles keep them), hidden
-- (recommendations dismissed), lists (the user's own lists and their items), account (the
-- public profile's settings). A kind never changed has no row and reads 1970-01-01.
--
-- Also: the watched film's `rated_at` (GET /trakt/sync/ratings), set when its rating changes
-- unless the writer gave one, and each viewing's `trakt_id`, the stable whole-number id of its
-- history item (Trakt's history ids are numbers; a viewing's own id is a uuid).

create table public.user_trakt_activity (
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null
    check (kind in ('watched', 'rated', 'watchlisted', 'paused', 'hidden', 'lists', 'account')),
  changed_at timestamptz not null,
  primary key (user_id, kind)
);

alter table public.user_trakt_activity enable row level security;

-- The owner reads their own times; only the triggers below (security definer) write them.
create policy user_trakt_activity_select on public.user_trakt_activity for select
  to authenticated using (user_id = (select auth.uid()));

grant select on public.user_trakt_activity to authenticated;
grant all on public.user_trakt_activity to service_role;

-- Moves `activity` (a kind) for `users` to now (in milliseconds, at least 1 ms past its last time). Users in
-- one order, so two writers never wait on each other's rows in a cycle; a user no longer there
-- (an account going, its rows by cascade or by public.delete_user_rows) gets no row.
create or replace function public.trakt_activity_touch(users uuid[], activity text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  stamp timestamptz := pg_catalog.date_trunc('milliseconds', pg_catalog.now());
begin
  if users is null or pg_catalog.cardinality(users) = 0 or public.stats_user_leaving(users) then
    return;
  end if;
  insert into public.user_trakt_activity as a (user_id, kind, changed_at)
  select u.id, activity, stamp from auth.users u where u.id = any (users) order by u.id
  on conflict (user_id, kind) do update
    set changed_at = greatest(excluded.changed_at, a.changed_at + interval '1 millisecond');
end
$$;

-- The watched rows: a film added or removed, or its watch date changed, moves `watched`; a
-- rating given, changed or gone (its film's row included) moves `rated`.
create or replace function public.trakt_activity_watched_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  watched uuid[];
  rated uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct n.user_id) into watched from trakt_new n;
    select array_agg(distinct n.user_id) into rated from trakt_new n where n.rating is not null;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.user_id) into watched from trakt_old o;
    select array_agg(distinct o.user_id) into rated from trakt_old o where o.rating is not null;
  else
    select array_agg(distinct n.user_id) into watched
      from trakt_new n join trakt_old o on o.user_id = n.user_id and o.catalog_id = n.catalog_id
     where n.watched_on is distinct from o.watched_on;
    select array_agg(distinct n.user_id) into rated
      from trakt_new n join trakt_old o on o.user_id = n.user_id and o.catalog_id = n.catalog_id
     where n.rating is distinct from o.rating;
  end if;
  perform public.trakt_activity_touch(watched, 'watched');
  perform public.trakt_activity_touch(rated, 'rated');
  return null;
end
$$;

-- The viewings: one logged or removed, or its date or film changed, moves `watched`.
create or replace function public.trakt_activity_viewing_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  watched uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct n.user_id) into watched from trakt_new n;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.user_id) into watched from trakt_old o;
  else
    select array_agg(distinct n.user_id) into watched
      from trakt_new n join trakt_old o on o.id = n.id
     where (n.watched_on, n.catalog_id) is distinct from (o.watched_on, o.catalog_id);
  end if;
  perform public.trakt_activity_touch(watched, 'watched');
  return null;
end
$$;

-- A table whose every changed row moves one kind for its user (`tg_argv[0]`).
create or replace function public.trakt_activity_user_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  users uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct n.user_id) into users from trakt_new n;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.user_id) into users from trakt_old o;
  else
    select array_agg(distinct u.user_id) into users
      from (select n.user_id from trakt_new n union select o.user_id from trakt_old o) u;
  end if;
  perform public.trakt_activity_touch(users, tg_argv[0]);
  return null;
end
$$;

-- A list's items: the owners of the lists whose items changed move `lists` (a list deleted
-- with its items moves it through its own row).
create or replace function public.trakt_activity_list_items()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  users uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct l.user_id) into users
      from public.user_lists l where l.id in (select n.list_id from trakt_new n);
  elsif tg_op = 'DELETE' then
    select array_agg(distinct l.user_id) into users
      from public.user_lists l where l.id in (select o.list_id from trakt_old o);
  else
    select array_agg(distinct l.user_id) into users
      from public.user_lists l
     where l.id in (select n.list_id from trakt_new n union select o.list_id from trakt_old o);
  end if;
  perform public.trakt_activity_touch(users, 'lists');
  return null;
end
$$;

-- My List is one row per user: a change of its films moves `watchlisted`.
create or replace function public.trakt_activity_my_list()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.trakt_activity_touch(array[coalesce(new.user_id, old.user_id)], 'watchlisted');
  return null;
end
$$;

-- A rating given or changed gets its time, unless the writer gave one (a Trakt client's
-- `rated_at`); a rating gone takes its time away.
create or replace function public.trakt_rated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.rating is null then
    new.rated_at := null;
  elsif tg_op = 'INSERT' then
    new.rated_at := coalesce(new.rated_at, pg_catalog.now());
  elsif new.rating is distinct from old.rating and new.rated_at is not distinct from old.rated_at then
    new.rated_at := pg_catalog.now();
  end if;
  return new;
end
$$;

revoke execute on function public.trakt_activity_touch(uuid[], text) from public, anon, authenticated;
revoke execute on function public.trakt_activity_watched_rows() from public, anon, authenticated;
revoke execute on function public.trakt_activity_viewing_rows() from public, anon, authenticated;
revoke execute on function public.trakt_activity_user_rows() from public, anon, authenticated;
revoke execute on function public.trakt_activity_list_items() from public, anon, authenticated;
revoke execute on function public.trakt_activity_my_list() from public, anon, authenticated;
revoke execute on function public.trakt_rated_at() from public, anon, authenticated;

alter table public.user_watched_movies add column rated_at timestamptz;
-- The ratings already there: the time the film was added is the best known.
update public.user_watched_movies set rated_at = created_at where rating is not null;

alter table public.user_viewings add column trakt_id bigint generated by default as identity;
create unique index user_viewings_trakt_id_idx on public.user_viewings (trakt_id);

create trigger trakt_rated_at before insert or update on public.user_watched_movies
  for each row execute function public.trakt_rated_at();

-- Named to fire after the figures' triggers (triggers fire in name order), so every writer
-- takes the figures' rows first and these last.
create trigger zz_trakt_activity_insert after insert on public.user_watched_movies
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_watched_rows();
create trigger zz_trakt_activity_update after update on public.user_watched_movies
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_watched_rows();
create trigger zz_trakt_activity_delete after delete on public.user_watched_movies
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_watched_rows();

create trigger zz_trakt_activity_insert after insert on public.user_viewings
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_viewing_rows();
create trigger zz_trakt_activity_update after update on public.user_viewings
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_viewing_rows();
create trigger zz_trakt_activity_delete after delete on public.user_viewings
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_viewing_rows();

create trigger zz_trakt_activity_change after insert or update or delete on public.user_my_list
  for each row execute function public.trakt_activity_my_list();

create trigger zz_trakt_activity_insert after insert on public.user_dismissed_movies
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('hidden');
create trigger zz_trakt_activity_update after update on public.user_dismissed_movies
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('hidden');
create trigger zz_trakt_activity_delete after delete on public.user_dismissed_movies
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_user_rows('hidden');

create trigger zz_trakt_activity_insert after insert on public.user_lists
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('lists');
create trigger zz_trakt_activity_update after update on public.user_lists
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('lists');
create trigger zz_trakt_activity_delete after delete on public.user_lists
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_user_rows('lists');

create trigger zz_trakt_activity_insert after insert on public.user_list_items
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_list_items();
create trigger zz_trakt_activity_update after update on public.user_list_items
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_list_items();
create trigger zz_trakt_activity_delete after delete on public.user_list_items
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_list_items();

create trigger zz_trakt_activity_insert after insert on public.user_profiles
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('account');
create trigger zz_trakt_activity_update after update on public.user_profiles
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('account');
create trigger zz_trakt_activity_delete after delete on public.user_profiles
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_user_rows('account');
