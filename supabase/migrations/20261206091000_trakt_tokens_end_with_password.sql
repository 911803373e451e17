-- A password change ends every Trakt app sign-in of the user (docs/trakt.md, "Sign-in"): their
-- access and refresh tokens die in the transaction that writes the new password, whichever path
-- writes it (the account page, a reset link, an admin). Account deletion needs nothing here: the
-- tables reference auth.users on delete cascade.
create or replace function public.end_trakt_authorizations() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
  begin
    delete from public.trakt_authorizations where user_id = new.id;
    delete from public.trakt_auth_codes where user_id = new.id;
    delete from public.trakt_device_codes where user_id = new.id;
    return new;
  end
  $$;
revoke execute on function public.end_trakt_authorizations() from public, anon, authenticated;

-- Where auth.users is Supabase's own and the migration's role may not add a trigger to it, the
-- migration goes on without it (docs/trakt.md says so), rather than leave the app unable to start.
do $$
begin
  create trigger trakt_authorizations_end_with_password
    after update of encrypted_password on auth.users
    for each row
    when (old.encrypted_password is distinct from new.encrypted_password)
    execute function public.end_trakt_authorizations();
exception when insufficient_privilege then
  raise notice 'auth.users takes no trigger here: a password change leaves Trakt sign-ins';
end
$$;
