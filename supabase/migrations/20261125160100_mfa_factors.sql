-- Two-factor codes (TOTP) of the built-in provider, in the tables and columns Supabase Auth uses
-- (auth.mfa_factors, auth.mfa_challenges, auth.sessions.aal and .factor_id), so accounts keep
-- their factors if they move to Supabase Auth. Created only where absent: on a Supabase
-- database they exist already, owned by Supabase Auth. Text columns stand in for Supabase's
-- enums (factor_type, factor_status, aal_level); the values are the same words.

do $$
begin
  if to_regclass('auth.mfa_factors') is null then
    create table auth.mfa_factors (
      id uuid not null primary key,
      user_id uuid not null references auth.users (id) on delete cascade,
      friendly_name text,
      factor_type text not null,
      status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      secret text,
      phone text,
      last_challenged_at timestamptz
    );
    create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
    alter table auth.mfa_factors enable row level security;
    revoke all on auth.mfa_factors from public, anon, authenticated;
  end if;

  if to_regclass('auth.mfa_challenges') is null then
    create table auth.mfa_challenges (
      id uuid not null primary key,
      factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
      created_at timestamptz not null,
      verified_at timestamptz,
      ip_address inet,
      otp_code text
    );
    create index mfa_challenges_factor_id_idx on auth.mfa_challenges (factor_id);
    alter table auth.mfa_challenges enable row level security;
    revoke all on auth.mfa_challenges from public, anon, authenticated;
  end if;

  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'sessions' and column_name = 'aal') then
    alter table auth.sessions add column aal text;
  end if;
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'sessions'
                   and column_name = 'factor_id') then
    alter table auth.sessions add column factor_id uuid;
  end if;
end
$$;
