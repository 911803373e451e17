-- Two-factor backup codes (docs/identity.md, "Backup codes"): 10 one-time codes per TOTP factor,
-- kept only as the SHA-256 of the user's id and the code. Server-only: row-level security on
-- and no policy, so a client of the database (Supabase's Data API with a user's token) can
-- neither read a hash nor add a code; only the server's own role reaches the rows. Deleting the
-- factor (or the user) voids its codes.
create table public.mfa_backup_codes (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  factor_id uuid not null,
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null,
  used_at timestamptz
);
create index mfa_backup_codes_user_hash_idx on public.mfa_backup_codes (user_id, code_hash);
create index mfa_backup_codes_factor_idx on public.mfa_backup_codes (factor_id);

-- The factor's codes go with it where the built-in provider owns auth.mfa_factors. On Supabase the
-- table belongs to Supabase Auth, which lets the project's role read it but not reference it, and
-- has no backup codes of ours to void (its /auth/v1 is Supabase's own).
do $$
begin
  if pg_get_userbyid((select relowner from pg_class where oid = 'auth.mfa_factors'::regclass))
      = current_user then
    alter table public.mfa_backup_codes add constraint mfa_backup_codes_factor_id_fkey
      foreign key (factor_id) references auth.mfa_factors (id) on delete cascade;
  end if;
end
$$;

alter table public.mfa_backup_codes enable row level security;
revoke all on public.mfa_backup_codes from public, anon, authenticated;
