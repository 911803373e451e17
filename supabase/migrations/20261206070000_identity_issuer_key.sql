-- An identity of the OpenID Connect provider is (issuer, subject), as the sign-in looks it up:
-- the key was (provider_id, provider), the subject alone, so a subject another issuer already
-- had was silently not saved, and its user was later not found by (issuer, subject). Only where
-- the built-in provider created auth.identities: on Supabase it belongs to Supabase Auth, which
-- keys its own identities, and nothing here runs.

do $$
begin
  if pg_get_userbyid((select relowner from pg_class where oid = 'auth.identities'::regclass))
      = current_user then
    alter table auth.identities drop constraint if exists identities_provider_id_provider_unique;
    create unique index identities_provider_issuer_subject_key
      on auth.identities (provider, (identity_data ->> 'iss'), provider_id);
  end if;
end
$$;
