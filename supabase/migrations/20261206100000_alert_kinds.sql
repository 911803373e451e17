-- Alert kinds (docs/availability.md, "Release alerts"): beside "now streaming", a My List film's
-- release in the user's region (in theaters, on digital, on disc), made by the availability job
-- once per film, kind and region; and the in-app notice that a channel was disabled
-- (docs/alerts.md). Each user switches the four alert kinds on or off.

alter table public.user_notifications drop constraint user_notifications_kind_check;
alter table public.user_notifications
  add constraint user_notifications_kind_check check (kind in (
    'now_streaming', 'in_theaters', 'on_digital', 'on_physical', 'channel_disabled'
  ));

-- A release alert names no provider; a channel notice names no film and no region.
alter table public.user_notifications
  alter column provider_id drop not null,
  alter column catalog_id drop not null,
  alter column region drop not null,
  add column release_type text check (release_type in ('theatrical', 'digital', 'physical')),
  add column release_date date,
  add column channel_name text check (char_length(channel_name) between 1 and 200);

alter table public.user_notifications
  add constraint user_notifications_kind_fields_check check (
    case kind
      when 'now_streaming' then
        catalog_id is not null and provider_id is not null and region is not null
      when 'channel_disabled' then channel_name is not null
      else catalog_id is not null and region is not null
        and release_type is not null and release_date is not null
    end
  );

-- Once per film, kind and region: the job inserts with `on conflict do nothing` on this index.
create unique index user_notifications_release_once_idx
  on public.user_notifications (user_id, catalog_id, kind, region)
  where kind in ('in_theaters', 'on_digital', 'on_physical');

-- The user's alert kinds; no row means the defaults (everything but discs).
create table public.user_alert_settings (
  user_id uuid primary key references auth.users (id) on delete cascade,
  now_streaming boolean not null default true,
  in_theaters boolean not null default true,
  on_digital boolean not null default true,
  on_physical boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.user_alert_settings enable row level security;

create policy user_alert_settings_select on public.user_alert_settings for select
  to authenticated using (user_id = (select auth.uid()));
create policy user_alert_settings_insert on public.user_alert_settings for insert
  to authenticated with check (user_id = (select auth.uid()));
create policy user_alert_settings_update on public.user_alert_settings for update
  to authenticated using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy user_alert_settings_delete on public.user_alert_settings for delete
  to authenticated using (user_id = (select auth.uid()));
create policy user_alert_settings_select_aal2 on public.user_alert_settings as restrictive
  for select to authenticated using ((select public.aal_satisfied()));
create policy user_alert_settings_insert_aal2 on public.user_alert_settings as restrictive
  for insert to authenticated with check ((select public.aal_satisfied()));
create policy user_alert_settings_update_aal2 on public.user_alert_settings as restrictive
  for update to authenticated using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
create policy user_alert_settings_delete_aal2 on public.user_alert_settings as restrictive
  for delete to authenticated using ((select public.aal_satisfied()));

grant select, insert, update, delete on public.user_alert_settings to authenticated;
grant all on public.user_alert_settings to service_role;
