-- The local recommender (docs/recommend.md, "Local picks").
--
-- movies: the collection a film belongs to (TMDB's belongs_to_collection) and its original
-- language, stored by every detail fetch (the language by list rows too); and features_rev, a
-- number from one sequence taken whenever a row is written with features the model reads, so a
-- process holding the model's index reads only the rows changed since (by the index below).
--
-- Rows fetched before these columns existed lack them: their append set is forgotten (null, as
-- for rows fetched before it was recorded), so the details job (docs/catalog.md, "The details
-- job") fetches every user's film again by itself and fills them in.
--
-- recommend_feedback: a user's thumbs up (1) or down (-1) on a film, under row-level security
-- with the restrictive aal2 twins (docs/identity.md, "Two-factor codes guard the data").

alter table public.movies
  add column collection_id integer,
  add column collection_name text,
  add column original_language text,
  add column features_rev bigint not null default 0;

update public.movies set details_appends = null where details_appends is not null;

create sequence public.movie_features_rev_seq;

create function public.movies_features_rev()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.features_rev := pg_catalog.nextval('public.movie_features_rev_seq');
  return new;
end
$$;

revoke execute on function public.movies_features_rev() from public, anon, authenticated;

create trigger movies_features_rev_insert before insert on public.movies
  for each row execute function public.movies_features_rev();
create trigger movies_features_rev_update before update on public.movies
  for each row
  when (old.genres is distinct from new.genres or old.keywords is distinct from new.keywords
    or old.directors is distinct from new.directors or old.actors is distinct from new.actors
    or old.collection_id is distinct from new.collection_id
    or old.collection_name is distinct from new.collection_name
    or old.original_language is distinct from new.original_language
    or old.year is distinct from new.year or old.runtime is distinct from new.runtime
    or old.popularity is distinct from new.popularity
    or old.vote_average is distinct from new.vote_average
    or old.vote_count is distinct from new.vote_count or old.title is distinct from new.title)
  execute function public.movies_features_rev();

-- Every stored row gets a number once, so the first index read and the later ones agree.
update public.movies set features_rev = pg_catalog.nextval('public.movie_features_rev_seq');

create index movies_features_rev_idx on public.movies (features_rev);

grant usage, select on sequence public.movie_features_rev_seq to service_role;

create table public.recommend_feedback (
  user_id uuid not null references auth.users (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  value smallint not null check (value in (-1, 1)),
  created_at timestamptz not null default now(),
  primary key (user_id, catalog_id)
);

alter table public.recommend_feedback enable row level security;

create policy recommend_feedback_select on public.recommend_feedback for select
  to authenticated using (user_id = (select auth.uid()));
create policy recommend_feedback_insert on public.recommend_feedback for insert
  to authenticated with check (user_id = (select auth.uid()));
create policy recommend_feedback_update on public.recommend_feedback for update
  to authenticated using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy recommend_feedback_delete on public.recommend_feedback for delete
  to authenticated using (user_id = (select auth.uid()));

create policy recommend_feedback_select_aal2 on public.recommend_feedback as restrictive
  for select to authenticated using ((select public.aal_satisfied()));
create policy recommend_feedback_insert_aal2 on public.recommend_feedback as restrictive
  for insert to authenticated with check ((select public.aal_satisfied()));
create policy recommend_feedback_update_aal2 on public.recommend_feedback as restrictive
  for update to authenticated using ((select public.aal_satisfied()))
  with check ((select public.aal_satisfied()));
create policy recommend_feedback_delete_aal2 on public.recommend_feedback as restrictive
  for delete to authenticated using ((select public.aal_satisfied()));

grant select, insert, update, delete on public.recommend_feedback to authenticated;
grant all on public.recommend_feedback to service_role;
