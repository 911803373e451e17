-- The three helper functions of the interface.

-- Adds an id to the calling user's My List; a no-op when it is there. One statement, so
-- concurrent calls serialise on the row lock and none is lost.
create or replace function public.append_my_list(target_catalog_id integer)
returns integer[]
language plpgsql
security invoker
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  result integer[];
begin
  if uid is null then
    raise exception 'append_my_list needs an authenticated user' using errcode = '42501';
  end if;
  if target_catalog_id is null or target_catalog_id < 1 then
    raise exception 'catalog id must be a positive integer' using errcode = '22023';
  end if;
  insert into public.user_my_list as l (user_id, catalog_ids, updated_at)
  values (uid, array[target_catalog_id], now())
  on conflict (user_id) do update
    set catalog_ids = case
          when target_catalog_id = any (l.catalog_ids) then l.catalog_ids
          else pg_catalog.array_append(l.catalog_ids, target_catalog_id)
        end,
        updated_at = now()
  returning l.catalog_ids into result;
  return result;
end
$$;

-- Removes an id from the calling user's My List; a no-op when it is absent.
create or replace function public.remove_my_list(target_catalog_id integer)
returns integer[]
language plpgsql
security invoker
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
  result integer[];
begin
  if uid is null then
    raise exception 'remove_my_list needs an authenticated user' using errcode = '42501';
  end if;
  update public.user_my_list as l
    set catalog_ids = pg_catalog.array_remove(l.catalog_ids, target_catalog_id),
        updated_at = now()
    where l.user_id = uid
    returning l.catalog_ids into result;
  return coalesce(result, '{}');
end
$$;

revoke execute on function public.append_my_list(integer) from public, anon;
revoke execute on function public.remove_my_list(integer) from public, anon;
grant execute on function public.append_my_list(integer) to authenticated, service_role;
grant execute on function public.remove_my_list(integer) to authenticated, service_role;

-- Private helper of signup: whether an account exists for an email, in any letter case.
create or replace function public.auth_email_exists(target_email text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users as u where lower(u.email) = lower(pg_catalog.btrim(target_email))
  );
$$;

revoke execute on function public.auth_email_exists(text) from public, anon, authenticated;
grant execute on function public.auth_email_exists(text) to service_role;
