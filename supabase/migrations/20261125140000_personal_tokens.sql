-- Personal access tokens (docs/connections.md): a Bearer credential for a person's own scripts
-- and apps, shown once when made and kept only as its SHA-256, so a copy of the database
-- holds nothing that signs in.
create table public.user_api_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 60),
  scope text not null check (scope in ('read', 'write')),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz
);
-- GET /api/tokens lists a user's tokens newest first.
create index user_api_tokens_user_idx on public.user_api_tokens (user_id, created_at desc);

alter table public.user_api_tokens enable row level security;

create policy api_tokens_select on public.user_api_tokens for select to authenticated
  using (user_id = (select auth.uid()));
create policy api_tokens_insert on public.user_api_tokens for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy api_tokens_update on public.user_api_tokens for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy api_tokens_delete on public.user_api_tokens for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_api_tokens to authenticated;
grant all on public.user_api_tokens to service_role;
