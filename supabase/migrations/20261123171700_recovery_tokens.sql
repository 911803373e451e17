-- Password recovery tokens of the built-in provider (POST /auth/v1/recover, /auth/v1/verify).
-- A token is mailed once and kept only as its SHA-256; it is good for one use within an hour.
-- Deleting the user deletes them. Only the server reads and writes them: row-level security
-- on, no policy, no grant to anon or authenticated.

create table public.recovery_tokens (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index recovery_tokens_user_id_idx on public.recovery_tokens (user_id);

alter table public.recovery_tokens enable row level security;
revoke all on public.recovery_tokens from public, anon, authenticated;
grant all on public.recovery_tokens to service_role;
