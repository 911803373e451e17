-- Trakt-compatible sign-in (docs/trakt.md, "Sign-in"): a user's own apps, the device flow's codes,
-- the code flow's one-time codes, and each authorization (one signed-in app: its access and
-- refresh tokens). Every secret is kept only as its SHA-256, so a copy of the database holds
-- nothing that signs in.

-- Apps a user makes on /account/connections for tools that ask for "your own app".
create table public.trakt_apps (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  client_id text not null unique check (client_id ~ '^[0-9a-f]{64}$'),
  secret_hash text not null check (secret_hash ~ '^[0-9a-f]{64}$'),
  redirect_uris jsonb not null default '[]'::jsonb,
  created_at timestamptz not null
);
create index trakt_apps_user_idx on public.trakt_apps (user_id, created_at);

alter table public.trakt_apps enable row level security;
create policy trakt_apps_select on public.trakt_apps for select to authenticated
  using (user_id = (select auth.uid()));
create policy trakt_apps_insert on public.trakt_apps for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy trakt_apps_update on public.trakt_apps for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy trakt_apps_delete on public.trakt_apps for delete to authenticated
  using (user_id = (select auth.uid()));
create policy trakt_apps_select_aal2 on public.trakt_apps as restrictive for select
  to authenticated using ((select public.aal_satisfied()));
create policy trakt_apps_insert_aal2 on public.trakt_apps as restrictive for insert
  to authenticated with check ((select public.aal_satisfied()));
create policy trakt_apps_update_aal2 on public.trakt_apps as restrictive for update
  to authenticated using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
create policy trakt_apps_delete_aal2 on public.trakt_apps as restrictive for delete
  to authenticated using ((select public.aal_satisfied()));
grant select, insert, update, delete on public.trakt_apps to authenticated;
grant all on public.trakt_apps to service_role;

-- One signed-in app of a user: the token pair it holds now (a refresh replaces both).
create table public.trakt_authorizations (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  client_id text not null,
  -- The user's own app, when the client id is one; its deletion ends its tokens.
  app_id uuid references public.trakt_apps (id) on delete cascade,
  scope text not null default 'public',
  access_hash text not null unique check (access_hash ~ '^[0-9a-f]{64}$'),
  access_expires_at timestamptz not null,
  refresh_hash text not null unique check (refresh_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null,
  refreshed_at timestamptz not null,
  last_used_at timestamptz
);
create index trakt_authorizations_user_idx on public.trakt_authorizations (user_id, created_at);
create index trakt_authorizations_app_idx on public.trakt_authorizations (app_id);

alter table public.trakt_authorizations enable row level security;
create policy trakt_authorizations_select on public.trakt_authorizations for select
  to authenticated using (user_id = (select auth.uid()));
create policy trakt_authorizations_insert on public.trakt_authorizations for insert
  to authenticated with check (user_id = (select auth.uid()));
create policy trakt_authorizations_update on public.trakt_authorizations for update
  to authenticated using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy trakt_authorizations_delete on public.trakt_authorizations for delete
  to authenticated using (user_id = (select auth.uid()));
create policy trakt_authorizations_select_aal2 on public.trakt_authorizations as restrictive
  for select to authenticated using ((select public.aal_satisfied()));
create policy trakt_authorizations_insert_aal2 on public.trakt_authorizations as restrictive
  for insert to authenticated with check ((select public.aal_satisfied()));
create policy trakt_authorizations_update_aal2 on public.trakt_authorizations as restrictive
  for update to authenticated using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
create policy trakt_authorizations_delete_aal2 on public.trakt_authorizations as restrictive
  for delete to authenticated using ((select public.aal_satisfied()));
grant select, insert, update, delete on public.trakt_authorizations to authenticated;
grant all on public.trakt_authorizations to service_role;

-- The device flow: a code a device polls with, and the short code a person types on /activate.
-- No user owns a row until it is approved, so only the server reads it (RLS on, no policy
-- for `authenticated`).
create table public.trakt_device_codes (
  device_hash text primary key check (device_hash ~ '^[0-9a-f]{64}$'),
  user_code text not null unique check (user_code ~ '^[A-HJ-NP-Z2-9]{8}$'),
  client_id text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  last_polled_at timestamptz,
  status text not null default 'pending'
    check (status in ('pending', 'approved', 'denied', 'used')),
  user_id uuid references auth.users (id) on delete cascade
);
create index trakt_device_codes_expiry_idx on public.trakt_device_codes (expires_at);
alter table public.trakt_device_codes enable row level security;
grant all on public.trakt_device_codes to service_role;

-- The code flow's one-time codes (10 minutes), exchanged once at /trakt/oauth/token.
create table public.trakt_auth_codes (
  code_hash text primary key check (code_hash ~ '^[0-9a-f]{64}$'),
  app_id uuid not null references public.trakt_apps (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  redirect_uri text not null,
  expires_at timestamptz not null
);
create index trakt_auth_codes_expiry_idx on public.trakt_auth_codes (expires_at);
alter table public.trakt_auth_codes enable row level security;
grant all on public.trakt_auth_codes to service_role;
