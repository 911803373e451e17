-- A user's history imports (contract section 11): one row per run, written as the run goes so
-- GET /api/import/:id shows its progress. The file's rows, grouped per movie, are kept in
-- `units` and `cursor` counts the units applied, so a run cut off by a restart resumes where
-- it stopped at the next start, without the file.

create table public.history_imports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  format text not null check (format in ('letterboxd', 'trakt', 'imdb', 'service')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  progress double precision not null default 0 check (progress between 0 and 1),
  counts jsonb not null default '{}',
  unmatched jsonb not null default '[]',
  units jsonb not null default '[]',
  cursor integer not null default 0 check (cursor >= 0),
  error text
);
-- One running import per user: a second insert while one runs fails on this index (409).
create unique index history_imports_one_running_idx
  on public.history_imports (user_id) where status = 'running';
create index history_imports_user_started_idx
  on public.history_imports (user_id, started_at desc, id desc);
create index history_imports_running_idx on public.history_imports (status)
  where status = 'running';

alter table public.history_imports enable row level security;

-- Users may read their own runs; only the server writes them (a run's cursor and units are
-- the server's bookkeeping), so there is no insert, update or delete policy.
create policy history_imports_select on public.history_imports for select to authenticated
  using (user_id = (select auth.uid()));

grant select on public.history_imports to authenticated;
grant all on public.history_imports to service_role;
