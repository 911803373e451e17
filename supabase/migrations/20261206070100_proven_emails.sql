-- Proven addresses (docs/identity.md, "Proven addresses").
--
-- A password signup's email_confirmed_at was set at signup, unproven. Accounts made before
-- this change never proved their address, so theirs is cleared; the identity provider's
-- accounts keep theirs (set only when the provider verified the address). Only where the
-- built-in provider created auth.users: on Supabase it belongs to Supabase Auth, which keeps its
-- own confirmations, and the update does not run.
--
-- The confirmation links' tokens (public.signup_confirmations): mailed once, kept only as their
-- SHA-256, good for one use within 24 hours; deleting the user deletes them. Only the server
-- reads and writes them: row-level security on, no policy, no grant to anon or authenticated.

do $$
begin
  if pg_get_userbyid((select relowner from pg_class where oid = 'auth.users'::regclass))
      = current_user then
    update auth.users set email_confirmed_at = null
    where encrypted_password is not null and raw_app_meta_data ->> 'provider' = 'email';
  end if;
end
$$;

create table public.signup_confirmations (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index signup_confirmations_user_id_idx on public.signup_confirmations (user_id);

alter table public.signup_confirmations enable row level security;
revoke all on public.signup_confirmations from public, anon, authenticated;
grant all on public.signup_confirmations to service_role;
