-- The diary: one row per viewing of a movie (docs/diary.md). The watched row stays the
-- per-movie summary (its watched_on and rating follow the latest viewing), so a viewing hangs
-- off it and goes when the movie leaves the watched list, or the account is deleted.
-- `source` says who logged it: the user (manual), a history import, or a media server's
-- webhook. The same movie, date and source is one viewing, so a re-import or a replayed
-- webhook adds nothing.

create table public.user_viewings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  watched_on date not null check (watched_on >= date '1874-01-01'),
  rating smallint check (rating between 1 and 10),
  rewatch boolean not null default false,
  note text check (pg_catalog.char_length(note) <= 2000),
  source text not null check (source in ('manual', 'import', 'webhook')),
  created_at timestamptz not null default now(),
  foreign key (user_id, catalog_id)
    references public.user_watched_movies (user_id, catalog_id) on delete cascade
);

create unique index user_viewings_once_idx
  on public.user_viewings (user_id, catalog_id, watched_on, source);
-- The diary's order (newest first, ties by the later logged) and its cursor.
create index user_viewings_diary_idx
  on public.user_viewings (user_id, watched_on desc, created_at desc, id desc);

alter table public.user_viewings enable row level security;

create policy viewings_select on public.user_viewings for select to authenticated
  using (user_id = (select auth.uid()));
create policy viewings_insert on public.user_viewings for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy viewings_update on public.user_viewings for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy viewings_delete on public.user_viewings for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_viewings to authenticated;
grant all on public.user_viewings to service_role;
