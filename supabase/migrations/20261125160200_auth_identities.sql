-- Sign-in through the instance's OpenID Connect provider: each account's identities there, in
-- Supabase Auth's auth.identities (provider 'oidc', provider_id the ID token's `sub`, the issuer
-- in identity_data.iss), created only where absent (Supabase has it, owned by Supabase Auth).

do $$
begin
  if to_regclass('auth.identities') is null then
    create table auth.identities (
      provider_id text not null,
      user_id uuid not null references auth.users (id) on delete cascade,
      identity_data jsonb not null,
      provider text not null,
      last_sign_in_at timestamptz,
      created_at timestamptz,
      updated_at timestamptz,
      email text generated always as (lower(identity_data ->> 'email')) stored,
      id uuid not null default gen_random_uuid() primary key,
      constraint identities_provider_id_provider_unique unique (provider_id, provider)
    );
    create index identities_user_id_idx on auth.identities (user_id);
    alter table auth.identities enable row level security;
    revoke all on auth.identities from public, anon, authenticated;
  end if;
end
$$;
