-- The four tables of the interface, the import runs, row-level security and grants.

create table public.movies (
  catalog_id integer primary key check (catalog_id > 0),
  title text not null default '',
  original_title text not null default '',
  release_date date,
  year integer not null default 0,
  poster_path text not null default '',
  genre_ids integer[] not null default '{}',
  genres text[] not null default '{}',
  overview text not null default '',
  vote_average double precision not null default 0,
  vote_count integer not null default 0,
  popularity double precision not null default 0,
  -- Detail fields: null until the full details have been fetched (a "light" row).
  runtime integer,
  actors text[],
  directors text[],
  trailer_url text,
  has_details boolean not null default false,
  -- When the details were last fetched; freshness (about 90 days) is judged by it.
  cached_at timestamptz not null default now()
);
create index movies_title_lower_idx on public.movies (lower(title));
create index movies_original_title_lower_idx on public.movies (lower(original_title));

create table public.user_watched_movies (
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  created_at timestamptz not null default now(),
  primary key (user_id, catalog_id)
);
create index user_watched_movies_recent_idx
  on public.user_watched_movies (user_id, created_at desc, catalog_id desc);

create table public.user_my_list (
  user_id uuid primary key references auth.users (id) on delete cascade,
  catalog_ids integer[] not null default '{}',
  updated_at timestamptz not null default now()
);

create table public.recommendations (
  user_id uuid primary key references auth.users (id) on delete cascade,
  catalog_ids integer[] not null,
  watched_hash text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);

create table public.catalog_imports (
  id uuid primary key default gen_random_uuid(),
  trigger text not null check (trigger in ('manual', 'cron')),
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  pages integer not null check (pages between 1 and 25),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  movies_seen integer not null default 0,
  movies_upserted integer not null default 0,
  details_fetched integer not null default 0,
  errors integer not null default 0,
  last_error text
);
create index catalog_imports_started_idx on public.catalog_imports (started_at desc);

alter table public.movies enable row level security;
alter table public.user_watched_movies enable row level security;
alter table public.user_my_list enable row level security;
alter table public.recommendations enable row level security;
alter table public.catalog_imports enable row level security;

-- Movie data is public to read; only the server (owner or service_role) writes it.
create policy movies_select on public.movies for select to anon, authenticated using (true);

create policy watched_select on public.user_watched_movies for select to authenticated
  using (user_id = (select auth.uid()));
create policy watched_insert on public.user_watched_movies for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy watched_update on public.user_watched_movies for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy watched_delete on public.user_watched_movies for delete to authenticated
  using (user_id = (select auth.uid()));

create policy my_list_select on public.user_my_list for select to authenticated
  using (user_id = (select auth.uid()));
create policy my_list_insert on public.user_my_list for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy my_list_update on public.user_my_list for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy my_list_delete on public.user_my_list for delete to authenticated
  using (user_id = (select auth.uid()));

create policy recommendations_select on public.recommendations for select to authenticated
  using (user_id = (select auth.uid()));
create policy recommendations_insert on public.recommendations for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy recommendations_update on public.recommendations for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy recommendations_delete on public.recommendations for delete to authenticated
  using (user_id = (select auth.uid()));

-- catalog_imports has no policy: only the server reads and writes it.

grant select on public.movies to anon, authenticated;
grant select, insert, update, delete on public.user_watched_movies to authenticated;
grant select, insert, update, delete on public.user_my_list to authenticated;
grant select, insert, update, delete on public.recommendations to authenticated;
grant all on public.movies, public.user_watched_movies, public.user_my_list,
  public.recommendations, public.catalog_imports to service_role;
