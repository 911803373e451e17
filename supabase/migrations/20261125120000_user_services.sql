-- My services (issue 26, docs/availability.md): the region a user watches in, the streaming
-- providers they subscribe to (TMDB provider ids), whether recommendations keep to them, and
-- whether new-availability alerts are mailed. One row per user; none means the defaults.

create table public.user_services (
  user_id uuid primary key references auth.users (id) on delete cascade,
  region text not null check (region ~ '^[A-Z]{2}$'),
  provider_ids integer[] not null default '{}'
    check (cardinality(provider_ids) <= 50 and 0 < all (provider_ids)),
  only_mine boolean not null default false,
  email_alerts boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.user_services enable row level security;

create policy user_services_select on public.user_services for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_services_insert on public.user_services for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy user_services_update on public.user_services for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy user_services_delete on public.user_services for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_services to authenticated;
grant all on public.user_services to service_role;
