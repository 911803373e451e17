-- History imports at scale (issue 24): a run's units and its unmatched report become rows
-- instead of one JSON value rewritten after every batch (quadratic for a large file). Units
-- are stored in chunks for resumption and dropped at the end; unmatched movies are appended
-- once each and paged through GET /api/import/:id/unmatched. A run can be cancelled, and
-- counts films beside file rows.

alter table public.history_imports drop constraint history_imports_status_check;
alter table public.history_imports add constraint history_imports_status_check
  check (status in ('running', 'succeeded', 'failed', 'cancelled'));
-- {"total","matched","unmatched"} in films (one per movie of the file), beside `counts` in rows.
alter table public.history_imports add column films jsonb not null default '{}';

-- The units still to apply, a chunk of up to 1,000 per row, in file order.
create table public.history_import_units (
  import_id uuid not null references public.history_imports (id) on delete cascade,
  chunk integer not null check (chunk >= 0),
  units jsonb not null,
  primary key (import_id, chunk)
);

-- The server's bookkeeping: no policy, so users can neither read nor write it.
alter table public.history_import_units enable row level security;
grant all on public.history_import_units to service_role;

-- One row per unmatched film, in file order (`ord` counts the run's unmatched films from 1).
create table public.history_import_unmatched (
  import_id uuid not null references public.history_imports (id) on delete cascade,
  ord integer not null check (ord >= 1),
  user_id uuid not null references auth.users (id) on delete cascade,
  title text not null,
  year integer,
  reason text not null check (reason in ('not_found', 'ambiguous', 'invalid_row')),
  -- How many rows of the file named this film.
  file_rows integer not null default 1 check (file_rows >= 1),
  primary key (import_id, ord)
);
create index history_import_unmatched_user_idx on public.history_import_unmatched (user_id);

alter table public.history_import_unmatched enable row level security;

-- Users may read their own report; only the server writes it.
create policy history_import_unmatched_select on public.history_import_unmatched for select
  to authenticated using (user_id = (select auth.uid()));

grant select on public.history_import_unmatched to authenticated;
grant all on public.history_import_unmatched to service_role;
