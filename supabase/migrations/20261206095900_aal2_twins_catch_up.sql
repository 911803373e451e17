-- The restrictive aal2 twin (docs/identity.md, "Two-factor codes guard the data") for every
-- user-row policy added since 20261206080000_mfa_aal2_policies.sql without one: the Trakt
-- activity, watching and playback tables and the saved Seerr. Only missing twins are made, so a
-- table that already wrote its own keeps it.
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
      and not exists (
        select 1 from pg_catalog.pg_policies twin
        where twin.schemaname = pol.schemaname and twin.tablename = pol.tablename
          and twin.policyname = pol.policyname || '_aal2'
      )
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
