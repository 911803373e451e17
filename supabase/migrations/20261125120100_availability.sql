-- The availability job and its alerts (issue 26, docs/availability.md): one row per run of the
-- job (read by the admin route, written by the server only), and the notifications a user gets
-- when a movie on their My List newly streams on one of their services in their region.

create table public.availability_runs (
  id uuid primary key default gen_random_uuid(),
  trigger text not null check (trigger in ('manual', 'cron')),
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  budget integer not null check (budget > 0),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  movies_planned integer not null default 0,
  movies_refreshed integer not null default 0,
  calls integer not null default 0,
  notifications integer not null default 0,
  mails integer not null default 0,
  errors integer not null default 0,
  last_error text
);
create index availability_runs_started_idx on public.availability_runs (started_at desc);

alter table public.availability_runs enable row level security;
-- No policy: only the server reads and writes the runs.
grant all on public.availability_runs to service_role;

create table public.user_notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null default 'now_streaming' check (kind in ('now_streaming')),
  catalog_id integer not null check (catalog_id > 0),
  provider_id integer not null check (provider_id > 0),
  provider_name text not null default '',
  provider_logo text not null default '',
  region text not null check (region ~ '^[A-Z]{2}$'),
  created_at timestamptz not null default now(),
  read_at timestamptz,
  mailed_at timestamptz
);
-- The list (newest first), the unread count, and the 30-day repeat check.
create index user_notifications_user_created_idx
  on public.user_notifications (user_id, created_at desc, id desc);
create index user_notifications_unread_idx
  on public.user_notifications (user_id) where read_at is null;
create index user_notifications_repeat_idx
  on public.user_notifications (user_id, catalog_id, provider_id, region, created_at desc);

alter table public.user_notifications enable row level security;

-- Users read, mark read and delete their own; only the server creates them (no insert policy).
create policy user_notifications_select on public.user_notifications for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_notifications_update on public.user_notifications for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy user_notifications_delete on public.user_notifications for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, update, delete on public.user_notifications to authenticated;
grant all on public.user_notifications to service_role;
