-- "Available to me" at list speed (issue 26, docs/availability.md): each movie's stored
-- providers that count as streaming (flatrate, free, ads), one narrow row per (movie, region,
-- provider) at its best kind, so a list read finds a card's offers in my region by index instead
-- of unpacking the movie's whole watch_providers (about 95 regions) per card.
--
-- Kept in step with movies.watch_providers by a trigger, so every writer (the detail fetch,
-- the availability job, imports, tests' seeds) keeps it right without knowing it exists.

create table public.movie_streaming_offers (
  catalog_id integer not null references public.movies (catalog_id) on delete cascade,
  region text not null,
  provider_id integer not null check (provider_id > 0),
  provider_name text not null default '',
  kind text not null check (kind in ('flatrate', 'free', 'ads')),
  -- The kind's rank (flatrate 1, free 2, ads 3) and the offer's place in TMDB's list of it:
  -- the order the cards show.
  kind_ord smallint not null,
  ord integer not null,
  primary key (catalog_id, region, provider_id)
);
-- A list read takes every offer of my providers in my region in one range, then joins it to
-- the list by movie.
create index movie_streaming_offers_region_provider_idx
  on public.movie_streaming_offers (region, provider_id, catalog_id);

-- The streaming offers in a stored `results` object (per region): each provider once per
-- region, at its best kind then its first place. An entry without a usable integer id is
-- skipped, as the list reads always skipped it.
create or replace function public.streaming_offers(results jsonb)
returns table (region text, provider_id integer, provider_name text, kind text,
  kind_ord smallint, ord integer)
language sql
immutable
security invoker
set search_path = ''
as $$
  select distinct on (r.key, o.pid)
         r.key, o.pid, coalesce(o.value ->> 'provider_name', ''), k.kind,
         k.ord::smallint, o.ord::integer
    from jsonb_each(case when jsonb_typeof(results) = 'object' then results
                         else '{}'::jsonb end) as r(key, value)
   cross join unnest(array['flatrate', 'free', 'ads']) with ordinality as k(kind, ord)
   cross join lateral (
     select e.value, e.ord,
            case when (e.value ->> 'provider_id') ~ '^[1-9][0-9]{0,9}$'
                  and (e.value ->> 'provider_id')::bigint <= 2147483647
                 then (e.value ->> 'provider_id')::integer end as pid
       from jsonb_array_elements(
              case when jsonb_typeof(r.value -> k.kind) = 'array' then r.value -> k.kind
                   else '[]'::jsonb end) with ordinality as e(value, ord)
   ) as o
   where o.pid is not null
   order by r.key, o.pid, k.ord, o.ord
$$;

-- Replaces a movie's rows whenever its stored providers change.
create or replace function public.sync_movie_streaming_offers()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.watch_providers is not distinct from old.watch_providers then
    return null;
  end if;
  delete from public.movie_streaming_offers where catalog_id = new.catalog_id;
  insert into public.movie_streaming_offers
    (catalog_id, region, provider_id, provider_name, kind, kind_ord, ord)
  select new.catalog_id, s.region, s.provider_id, s.provider_name, s.kind, s.kind_ord, s.ord
    from public.streaming_offers(new.watch_providers) as s;
  return null;
end
$$;

create trigger movies_streaming_offers
  after insert or update of watch_providers on public.movies
  for each row execute function public.sync_movie_streaming_offers();

-- The providers already stored.
insert into public.movie_streaming_offers
  (catalog_id, region, provider_id, provider_name, kind, kind_ord, ord)
select m.catalog_id, s.region, s.provider_id, s.provider_name, s.kind, s.kind_ord, s.ord
  from public.movies m
 cross join lateral public.streaming_offers(m.watch_providers) as s
 where m.watch_providers is not null;

revoke execute on function public.streaming_offers(jsonb) from public, anon, authenticated;
revoke execute on function public.sync_movie_streaming_offers() from public, anon, authenticated;
-- The server's role writes movies, so its trigger calls these.
grant execute on function public.streaming_offers(jsonb) to service_role;
grant execute on function public.sync_movie_streaming_offers() to service_role;

-- Movie data: public to read, as the movies are; only the server writes it (through the
-- trigger, as the role that writes the movie).
alter table public.movie_streaming_offers enable row level security;
create policy movie_streaming_offers_select on public.movie_streaming_offers
  for select to anon, authenticated using (true);
grant select on public.movie_streaming_offers to anon, authenticated;
grant all on public.movie_streaming_offers to service_role;
