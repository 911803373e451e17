-- Two-factor codes guard the data in the database too (docs/identity.md, "Two-factor codes guard
-- the data"), as Supabase advises for users with a verified factor: every policy that gives
-- `authenticated` a user's own rows gets a restrictive twin for the same operation, which lets
-- through only an aal2 token or a user without a verified factor. The app checks the same at its
-- edge before any statement, and its own transactions say so in their claims
-- (lib/platform/store/user_settings.ts); these policies hold the line for a client that talks to
-- the database directly (Supabase's Data API with a user's token).

-- auth.jwt() as Supabase defines it: the request's JWT claims. Created only where absent.
do $$
begin
  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
      language sql stable
      as $f$
        select coalesce(
          nullif(current_setting('request.jwt.claim', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')
        )::jsonb
      $f$;
    grant execute on function auth.jwt() to anon, authenticated, service_role;
  end if;
end
$$;

-- Whether the request's token may reach the user's rows: aal2, or no verified factor at all.
-- Security definer: `authenticated` may not read auth.mfa_factors.
create or replace function public.aal_satisfied() returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (
        select 1 from auth.mfa_factors f
        where f.user_id = auth.uid() and f.status::text = 'verified'
      )
  $$;
revoke execute on function public.aal_satisfied() from public, anon;
grant execute on function public.aal_satisfied() to authenticated, service_role;

-- One restrictive policy per operation of each user-row policy (`<policy>_aal2`); a table added
-- later writes its own (tests/mfa_rls_test.ts fails for a policy without its twin).
do $$
declare
  p record;
  rule text := '((select public.aal_satisfied()))';
begin
  for p in
    select pol.schemaname, pol.tablename, pol.policyname, pol.cmd
    from pg_catalog.pg_policies pol
    where pol.schemaname = 'public' and pol.permissive = 'PERMISSIVE'
      and 'authenticated'::name = any (pol.roles)
      and (coalesce(pol.qual, '') || coalesce(pol.with_check, '')) like '%auth.uid()%'
  loop
    execute format(
      'create policy %I on %I.%I as restrictive for %s to authenticated %s',
      p.policyname || '_aal2', p.schemaname, p.tablename, p.cmd,
      case p.cmd
        when 'INSERT' then 'with check ' || rule
        when 'SELECT' then 'using ' || rule
        when 'DELETE' then 'using ' || rule
        else 'using ' || rule || ' with check ' || rule
      end
    );
  end loop;
end
$$;
