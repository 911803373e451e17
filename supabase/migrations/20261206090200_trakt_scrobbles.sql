-- Trakt's scrobbles and check-ins (docs/trakt.md, "Writes and scrobbles").
--
-- user_viewings.source gains `scrobble` (a player's stop at 80 % or more) and `checkin` (a
-- check-in whose runtime has passed), so the history read answers Trakt's action for each.
--
-- trakt_watching: one row per user, what they watch now (a scrobble started or a check-in,
-- until `expires_at`, cleared by a pause or a stop) and the last scrobble logged (`logged_*`:
-- a stop of the same film within its runtime of it answers 409 and logs nothing).
--
-- trakt_playback: a paused film's point (one per user and film), Trakt's sync/playback; its
-- id is the number Trakt clients send back to DELETE /sync/playback/:id.

alter table public.user_viewings drop constraint user_viewings_source_check;
alter table public.user_viewings add constraint user_viewings_source_check
  check (source in ('manual', 'import', 'webhook', 'scrobble', 'checkin'));

create table public.trakt_watching (
  user_id uuid primary key references auth.users (id) on delete cascade,
  id bigint generated always as identity,
  catalog_id integer check (catalog_id > 0),
  action text check (action in ('scrobble', 'checkin')),
  progress real not null default 0 check (progress between 0 and 100),
  started_at timestamptz,
  expires_at timestamptz,
  logged_catalog_id integer,
  logged_at timestamptz,
  logged_until timestamptz
);

alter table public.trakt_watching enable row level security;

create policy trakt_watching_select on public.trakt_watching for select to authenticated
  using (user_id = (select auth.uid()));
create policy trakt_watching_insert on public.trakt_watching for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy trakt_watching_update on public.trakt_watching for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy trakt_watching_delete on public.trakt_watching for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.trakt_watching to authenticated;
grant all on public.trakt_watching to service_role;

create table public.trakt_playback (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  progress real not null check (progress between 0 and 100),
  paused_at timestamptz not null,
  unique (user_id, catalog_id)
);

alter table public.trakt_playback enable row level security;

create policy trakt_playback_select on public.trakt_playback for select to authenticated
  using (user_id = (select auth.uid()));
create policy trakt_playback_insert on public.trakt_playback for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy trakt_playback_update on public.trakt_playback for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy trakt_playback_delete on public.trakt_playback for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.trakt_playback to authenticated;
grant all on public.trakt_playback to service_role;

-- A playback point kept, moved or taken away moves the user's `paused` time
-- (20261206090100_trakt_activity.sql).
create trigger zz_trakt_activity_insert after insert on public.trakt_playback
  referencing new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('paused');
create trigger zz_trakt_activity_update after update on public.trakt_playback
  referencing old table as trakt_old new table as trakt_new
  for each statement execute function public.trakt_activity_user_rows('paused');
create trigger zz_trakt_activity_delete after delete on public.trakt_playback
  referencing old table as trakt_old
  for each statement execute function public.trakt_activity_user_rows('paused');
