-- Movie nights (docs/nights.md): a night made by a signed-in user, its members (at most 8, each
-- with their own account), its shortlist of 12 films and the members' votes. A night crosses
-- users (every member sees the others' names and votes), and what a member may see of another is
-- decided by the service, which never shows a member's films or ratings. So these tables are the
-- server's only: row-level security on, no policy, no grant to anon or authenticated (as
-- signup_invites), and the Data API reads none of them. The join token is kept only as its
-- SHA-256.

create table public.movie_nights (
  id uuid primary key,
  creator_id uuid not null references auth.users (id) on delete cascade,
  name text not null default '' check (char_length(name) <= 80),
  only_mine boolean not null default false,
  token_hash text not null check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- When the creator last started the vote (a reshuffle sets it again and clears the votes).
  started_at timestamptz,
  match_catalog_id integer
);
create index movie_nights_creator_idx on public.movie_nights (creator_id, created_at desc);
create index movie_nights_expires_idx on public.movie_nights (expires_at);

create table public.movie_night_members (
  night_id uuid not null references public.movie_nights (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  joined_at timestamptz not null,
  -- The order members joined in, for a stable list; the creator is 0.
  seq integer not null,
  primary key (night_id, user_id)
);
create index movie_night_members_user_idx on public.movie_night_members (user_id);

create table public.movie_night_shortlist (
  night_id uuid not null references public.movie_nights (id) on delete cascade,
  position integer not null check (position between 1 and 12),
  catalog_id integer not null check (catalog_id > 0),
  -- Reasons of shared tastes only (never a member's film or rating), made at the start.
  reasons jsonb not null default '[]'::jsonb,
  primary key (night_id, position),
  unique (night_id, catalog_id)
);

create table public.movie_night_votes (
  night_id uuid not null references public.movie_nights (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  yes boolean not null,
  voted_at timestamptz not null,
  primary key (night_id, user_id, catalog_id)
);

alter table public.movie_nights enable row level security;
alter table public.movie_night_members enable row level security;
alter table public.movie_night_shortlist enable row level security;
alter table public.movie_night_votes enable row level security;
revoke all on public.movie_nights from public, anon, authenticated;
revoke all on public.movie_night_members from public, anon, authenticated;
revoke all on public.movie_night_shortlist from public, anon, authenticated;
revoke all on public.movie_night_votes from public, anon, authenticated;
grant all on public.movie_nights to service_role;
grant all on public.movie_night_members to service_role;
grant all on public.movie_night_shortlist to service_role;
grant all on public.movie_night_votes to service_role;
