-- The details job backs off a film whose fetch failed (docs/catalog.md, "The details job",
-- "Failures"): one row per film whose last fetch by the job failed, with how many failed in a
-- row and when the job may try it again. A film with no row is tried at its place in the order;
-- a successful fetch deletes the row. No foreign key to movies: a film on a user's list may have
-- no movies row at all (that is why it is fetched).

create table public.details_failures (
  catalog_id integer primary key,
  failures integer not null check (failures > 0),
  failed_at timestamptz not null,
  retry_at timestamptz not null,
  last_error text
);

alter table public.details_failures enable row level security;
-- No policy: only the server reads and writes it.
grant all on public.details_failures to service_role;
