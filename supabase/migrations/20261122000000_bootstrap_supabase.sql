-- What Supabase already has, created on a plain PostgreSQL (and on the embedded engine) so the
-- same migrations and the same SQL run everywhere. Every statement is a no-op where the object
-- exists, so on Supabase this migration changes nothing.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- Supabase's column names, so accounts can move to Supabase Auth later. Created only where
-- absent: on Supabase the table belongs to supabase_auth_admin, and a non-owner may neither
-- create in its schema nor index it (even `if not exists` checks the privilege first).
do $$
begin
  if to_regclass('auth.users') is null then
    create table auth.users (
      instance_id uuid,
      id uuid primary key,
      aud varchar(255),
      role varchar(255),
      email varchar(255),
      encrypted_password varchar(255),
      email_confirmed_at timestamptz,
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb,
      raw_user_meta_data jsonb,
      is_super_admin boolean,
      created_at timestamptz,
      updated_at timestamptz,
      is_anonymous boolean not null default false
    );
    create unique index users_email_lower_key on auth.users (lower(email));
  end if;
end
$$;

-- auth.uid() as Supabase defines it: the `sub` of the request's JWT claims.
do $$
begin
  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
      as $f$
        select coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
        )::uuid
      $f$;
  end if;
  if to_regprocedure('auth.role()') is null then
    create function auth.role() returns text
      language sql stable
      as $f$
        select coalesce(
          nullif(current_setting('request.jwt.claim.role', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
        )::text
      $f$;
  end if;
end
$$;

grant execute on function auth.uid() to anon, authenticated, service_role;
grant execute on function auth.role() to anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;
