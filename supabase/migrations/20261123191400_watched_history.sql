-- A watched entry's history (contract section 11): a rating (1-10, shown as half-stars 0.5-5),
-- the date the user watched it, and a private note. All three are optional (null = unrated,
-- unknown, none). Row-level security is the row's: watched_select/insert/update/delete already
-- scope every operation to (select auth.uid()), so new columns need no policy of their own.

alter table public.user_watched_movies
  add column rating smallint
    constraint user_watched_movies_rating_check check (rating between 1 and 10),
  add column watched_on date
    default ((pg_catalog.now() at time zone 'utc')::date)
    constraint user_watched_movies_watched_on_check check (watched_on >= date '1874-01-01'),
  add column note text
    constraint user_watched_movies_note_check check (pg_catalog.char_length(note) <= 2000);

-- Rows written before this migration: their first write is created_at, so that is the date
-- the default would have given them.
update public.user_watched_movies
  set watched_on = (created_at at time zone 'utc')::date;
