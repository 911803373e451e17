-- Alert channels (docs/alerts.md): where a user's alerts go besides the bell (email, Web Push,
-- ntfy, Discord, a signed webhook, Apprise), at most 10 a user, and the queue the delivery worker
-- drains off the request path. A channel's target and secrets are sealed by the server
-- (AES-256-GCM under SECRETS_KEY, or a key kept in KV apart from the database): a dump of this
-- table shows only the masked target (scheme and host) and ciphertext.

create table public.alert_channels (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null check (type in ('email', 'webpush', 'ntfy', 'discord', 'webhook', 'apprise')),
  name text not null check (char_length(name) between 1 and 100),
  enabled boolean not null default true,
  -- What the API shows: the target's scheme and host only ('' for email).
  target_masked text not null default '' check (char_length(target_masked) <= 300),
  -- SHA-256 (hex) of the target URL or push endpoint: the same target added again replaces the
  -- channel instead of counting twice; null for email.
  target_digest text check (target_digest ~ '^[0-9a-f]{64}$'),
  -- The sealed JSON of the target and its secrets (url, token, secret, subscription).
  sealed_config text check (char_length(sealed_config) <= 20000),
  consecutive_failures integer not null default 0 check (consecutive_failures >= 0),
  last_delivery_at timestamptz,
  last_error text check (char_length(last_error) <= 500),
  created_at timestamptz not null default now(),
  check ((type = 'email') = (sealed_config is null))
);
create index alert_channels_user_idx on public.alert_channels (user_id, created_at, id);
-- One email channel a user: it is the digest, whose switch is user_services.email_alerts.
create unique index alert_channels_one_email_idx on public.alert_channels (user_id)
  where type = 'email';
create index alert_channels_target_idx on public.alert_channels (user_id, type, target_digest);

alter table public.alert_channels enable row level security;

create policy alert_channels_select on public.alert_channels for select
  to authenticated using (user_id = (select auth.uid()));
create policy alert_channels_insert on public.alert_channels for insert
  to authenticated with check (user_id = (select auth.uid()));
create policy alert_channels_update on public.alert_channels for update
  to authenticated using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy alert_channels_delete on public.alert_channels for delete
  to authenticated using (user_id = (select auth.uid()));
create policy alert_channels_select_aal2 on public.alert_channels as restrictive
  for select to authenticated using ((select public.aal_satisfied()));
create policy alert_channels_insert_aal2 on public.alert_channels as restrictive
  for insert to authenticated with check ((select public.aal_satisfied()));
create policy alert_channels_update_aal2 on public.alert_channels as restrictive
  for update to authenticated using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
create policy alert_channels_delete_aal2 on public.alert_channels as restrictive
  for delete to authenticated using ((select public.aal_satisfied()));

grant select, insert, update, delete on public.alert_channels to authenticated;
grant all on public.alert_channels to service_role;

-- The delivery queue: one row per (channel, notification) still to deliver. Server only: no
-- policy, so a user's token reads none of it. `due_at` null means "now" (the trigger has no
-- clock of the app's); `lease_until` is how long the instance that claimed the row owns it.
create table public.alert_deliveries (
  id uuid primary key default gen_random_uuid(),
  channel_id uuid not null references public.alert_channels (id) on delete cascade,
  notification_id uuid not null references public.user_notifications (id) on delete cascade,
  attempts integer not null default 0 check (attempts >= 0),
  due_at timestamptz,
  lease_until timestamptz,
  last_error text check (char_length(last_error) <= 500),
  created_at timestamptz not null default now(),
  unique (channel_id, notification_id)
);
create index alert_deliveries_due_idx on public.alert_deliveries (due_at nulls first, created_at);

alter table public.alert_deliveries enable row level security;
grant all on public.alert_deliveries to service_role;

-- Every new notification is queued for each enabled channel of its user but email (the digest
-- mails it). Security definer: the notification's writer may not read others' channels.
create or replace function public.enqueue_alert_deliveries() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
  begin
    insert into public.alert_deliveries (channel_id, notification_id)
      select c.id, new.id from public.alert_channels c
       where c.user_id = new.user_id and c.enabled and c.type <> 'email'
    on conflict do nothing;
    return null;
  end
  $$;
revoke execute on function public.enqueue_alert_deliveries() from public, anon;

create trigger user_notifications_enqueue_alerts
  after insert on public.user_notifications
  for each row execute function public.enqueue_alert_deliveries();

-- E-mail alerts switched on anywhere (the streaming settings, an older client) show as the email
-- channel. Security definer: the switch is written as the user, the channel row is the server's.
create or replace function public.ensure_email_channel() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
  begin
    if new.email_alerts then
      insert into public.alert_channels (user_id, type, name)
        values (new.user_id, 'email', 'Email')
      on conflict (user_id) where type = 'email' do nothing;
    end if;
    return null;
  end
  $$;
revoke execute on function public.ensure_email_channel() from public, anon;

create trigger user_services_email_channel
  after insert or update of email_alerts on public.user_services
  for each row execute function public.ensure_email_channel();

insert into public.alert_channels (user_id, type, name)
  select user_id, 'email', 'Email' from public.user_services where email_alerts
on conflict (user_id) where type = 'email' do nothing;
