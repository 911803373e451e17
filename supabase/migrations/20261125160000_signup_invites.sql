-- Invites of SIGNUP=invite (POST /api/admin/invites): a random code the admin hands out, bound
-- to an email or not, good until it expires, used once. The code is kept as it is (the admin
-- lists and revokes invites by it); it opens one signup and nothing else. Only the server reads
-- and writes them: row-level security on, no policy, no grant to anon or authenticated.

create table public.signup_invites (
  code text primary key,
  email text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  -- The account the invite created; deleting that account deletes its invite.
  used_by uuid references auth.users (id) on delete cascade
);
create index signup_invites_created_at_idx on public.signup_invites (created_at desc);

alter table public.signup_invites enable row level security;
revoke all on public.signup_invites from public, anon, authenticated;
grant all on public.signup_invites to service_role;
