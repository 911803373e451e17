-- Account deletion (DELETE /api/account): removes every row of a user from every table in the
-- public schema that references auth.users, found in the catalog, so a table added later is
-- covered as soon as it references auth.users (with or without on delete cascade). Called by
-- the server (the owner) in the transaction that deletes the account; nobody else may run it.

create or replace function public.delete_user_rows(target_user uuid)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
declare
  fk record;
begin
  for fk in
    select n.nspname as schema_name, c.relname as table_name, a.attname as column_name
    from pg_catalog.pg_constraint as k
    join pg_catalog.pg_class as c on c.oid = k.conrelid
    join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute as a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.contype = 'f'
      and k.confrelid = 'auth.users'::pg_catalog.regclass
      and pg_catalog.array_length(k.conkey, 1) = 1
      and n.nspname = 'public'
  loop
    execute pg_catalog.format('delete from %I.%I where %I = $1',
      fk.schema_name, fk.table_name, fk.column_name)
      using target_user;
  end loop;
end
$$;

revoke execute on function public.delete_user_rows(uuid) from public, anon, authenticated;
grant execute on function public.delete_user_rows(uuid) to service_role;
