-- Contract section 12: a reason per recommended movie, stored with the set, and the movies a
-- user dismissed ("not interested"), never recommended to them again.

alter table public.recommendations
  add column reasons jsonb not null default '{}'::jsonb;

create table public.user_dismissed_movies (
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  created_at timestamptz not null default now(),
  primary key (user_id, catalog_id)
);
-- GET /api/recommend/dismissed lists newest first; the prompt takes the 30 newest.
create index user_dismissed_movies_recent_idx
  on public.user_dismissed_movies (user_id, created_at desc, catalog_id desc);

alter table public.user_dismissed_movies enable row level security;

create policy dismissed_select on public.user_dismissed_movies for select to authenticated
  using (user_id = (select auth.uid()));
create policy dismissed_insert on public.user_dismissed_movies for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy dismissed_update on public.user_dismissed_movies for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy dismissed_delete on public.user_dismissed_movies for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_dismissed_movies to authenticated;
grant all on public.user_dismissed_movies to service_role;
