-- The trigger of 20261206100700_movie_release_firsts.sql ran for every movies row written, so a
-- catalog import's rows (no release dates) each paid a function call and a delete that found
-- nothing. Now it runs only when there is something to keep: a row inserted with release dates,
-- or an update that changes them.

drop trigger movies_release_firsts on public.movies;

create trigger movies_release_firsts_insert
  after insert on public.movies
  for each row when (new.release_dates is not null)
  execute function public.sync_movie_release_firsts();

create trigger movies_release_firsts_update
  after update of release_dates on public.movies
  for each row when (old.release_dates is distinct from new.release_dates)
  execute function public.sync_movie_release_firsts();
