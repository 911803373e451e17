-- Media-server connections (docs/connections.md): one webhook secret per user, with the
-- settings the receivers read, and the last received events with their outcome.
--
-- The secret is shown to its owner whenever asked (like a media server's own webhook setting),
-- so the row keeps it; the receivers find a user only by its SHA-256 (`secret_hash`, unique), one
-- index lookup whatever the secret, so an unknown secret costs what a known one does.
create table public.user_connections (
  user_id uuid primary key references auth.users (id) on delete cascade,
  secret text not null check (secret ~ '^[A-Za-z0-9_-]{22}$'),
  secret_hash text not null unique check (secret_hash ~ '^[0-9a-f]{64}$'),
  plex_username text check (char_length(plex_username) between 1 and 100),
  remove_from_my_list boolean not null default true,
  created_at timestamptz not null default now(),
  rotated_at timestamptz not null default now()
);

alter table public.user_connections enable row level security;

create policy connections_select on public.user_connections for select to authenticated
  using (user_id = (select auth.uid()));
create policy connections_insert on public.user_connections for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy connections_update on public.user_connections for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy connections_delete on public.user_connections for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_connections to authenticated;
grant all on public.user_connections to service_role;

-- What the receivers did with each event: no payload, only what a person needs to see why a
-- film did not arrive. At most 50 per user are kept (the receiver deletes older ones).
create table public.webhook_events (
  id uuid primary key,
  -- The order of arrival: events of one clock instant still list newest first.
  seq bigint generated always as identity,
  user_id uuid not null references auth.users (id) on delete cascade,
  received_at timestamptz not null,
  source text not null check (source in ('plex', 'jellyfin', 'emby', 'generic')),
  event text not null check (char_length(event) <= 100),
  result text not null check (result in ('logged', 'rated', 'ignored', 'unmatched', 'invalid')),
  reason text check (char_length(reason) <= 100),
  title text check (char_length(title) <= 300),
  year integer,
  catalog_id integer
);
-- GET /api/me/connections/events reads a user's newest first; the trim reads the same order.
create index webhook_events_user_idx on public.webhook_events (user_id, seq desc);

alter table public.webhook_events enable row level security;

create policy webhook_events_select on public.webhook_events for select to authenticated
  using (user_id = (select auth.uid()));
create policy webhook_events_insert on public.webhook_events for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy webhook_events_update on public.webhook_events for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy webhook_events_delete on public.webhook_events for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.webhook_events to authenticated;
grant all on public.webhook_events to service_role;
