-- The release calendar at list speed (docs/calendar.md, "Which date a film shows"): per film, the
-- date each release type shows, chosen once when the film's release dates are written rather
-- than on every read. A calendar or feed read took every film's release dates of every region
-- (about 30 regions, 3 KB a film) to keep one date per type; it now takes two small entries of
-- this row per film.
--
-- firsts: {"<region>": {"<type>": [day, certification, note]}, ..., "*": {"<type>": [day,
-- certification, note, region]}}, the types as the API names them (TMDB's 1 premiere, 2 and 3
-- theatrical, 4 digital, 5 physical, 6 tv). A region's entry is its earliest date of that type
-- (a tie on the day keeps TMDB's order, so a limited release before a wide one); "*" is the
-- earliest of the regions' entries, a tie on the day going to the first region code. A read
-- takes `firsts->'*' || firsts->region`: the user's region's date where it has one, else the
-- earliest anywhere with the region it is from.
--
-- Kept in step with movies.release_dates by a trigger, as movie_streaming_offers is with
-- watch_providers, so every writer (the detail fetch, the details job, tests' seeds) keeps it
-- right without knowing it exists.

create table public.movie_release_firsts (
  catalog_id integer primary key references public.movies (catalog_id) on delete cascade,
  firsts jsonb not null
);

create or replace function public.release_firsts(dates jsonb)
returns jsonb
language sql
immutable
security invoker
set search_path = ''
as $$
  with r as (
    select e.key as region, t.type, d.value ->> 'date' as day,
           coalesce(d.value ->> 'certification', '') as certification,
           coalesce(d.value ->> 'note', '') as note, d.ord
      from jsonb_each(case when jsonb_typeof(dates) = 'object' then dates
                           else '{}'::jsonb end) as e(key, value)
     cross join lateral jsonb_array_elements(
              case when jsonb_typeof(e.value) = 'array' then e.value else '[]'::jsonb end)
              with ordinality as d(value, ord)
     cross join lateral (
       select case d.value ->> 'type'
                when '1' then 'premiere' when '2' then 'theatrical' when '3' then 'theatrical'
                when '4' then 'digital' when '5' then 'physical' when '6' then 'tv'
              end as type
     ) as t
     where t.type is not null and (d.value ->> 'date') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
  ), own as (
    select distinct on (r.region, r.type) r.region, r.type, r.day, r.certification, r.note
      from r
     order by r.region, r.type, r.day, r.ord
  ), anywhere as (
    select distinct on (own.type) own.type, own.day, own.certification, own.note, own.region
      from own
     order by own.type, own.day, own.region collate "C"
  )
  select pg_catalog.jsonb_build_object('*', coalesce(
           (select pg_catalog.jsonb_object_agg(a.type,
                     pg_catalog.jsonb_build_array(a.day, a.certification, a.note, a.region))
              from anywhere a),
           '{}'::jsonb))
      || coalesce(
           (select pg_catalog.jsonb_object_agg(g.region, g.types)
              from (select own.region,
                           pg_catalog.jsonb_object_agg(own.type,
                             pg_catalog.jsonb_build_array(own.day, own.certification, own.note))
                             as types
                      from own group by own.region) g),
           '{}'::jsonb)
$$;

-- Replaces a movie's row whenever its stored release dates change.
create or replace function public.sync_movie_release_firsts()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.release_dates is not distinct from old.release_dates then
    return null;
  end if;
  if new.release_dates is null then
    delete from public.movie_release_firsts where catalog_id = new.catalog_id;
  else
    insert into public.movie_release_firsts (catalog_id, firsts)
    values (new.catalog_id, public.release_firsts(new.release_dates))
    on conflict (catalog_id) do update set firsts = excluded.firsts;
  end if;
  return null;
end
$$;

create trigger movies_release_firsts
  after insert or update of release_dates on public.movies
  for each row execute function public.sync_movie_release_firsts();

-- The release dates already stored.
insert into public.movie_release_firsts (catalog_id, firsts)
select m.catalog_id, public.release_firsts(m.release_dates)
  from public.movies m
 where m.release_dates is not null;

revoke execute on function public.release_firsts(jsonb) from public, anon, authenticated;
revoke execute on function public.sync_movie_release_firsts() from public, anon, authenticated;
-- The server's role writes movies, so its trigger calls these.
grant execute on function public.release_firsts(jsonb) to service_role;
grant execute on function public.sync_movie_release_firsts() to service_role;

-- Movie data: public to read, as the movies are; only the server writes it (through the
-- trigger, as the role that writes the movie).
alter table public.movie_release_firsts enable row level security;
create policy movie_release_firsts_select on public.movie_release_firsts
  for select to anon, authenticated using (true);
grant select on public.movie_release_firsts to anon, authenticated;
grant all on public.movie_release_firsts to service_role;
