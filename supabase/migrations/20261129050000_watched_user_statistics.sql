-- The planner's guess of how many watched rows one user has (docs/lists.md, "Many users"). With
-- the default sample (30,000 rows) a table of 100,000 users with 100 films each was judged to
-- hold ~45,600 users, ~220 rows each; past ~180 rows the planner joins a user's list to the
-- movies by reading the whole movies table (11 ms) instead of one index probe a film (0.7 ms),
-- so one user's unpaged read cost 1.8x the same read on a database holding that user alone.
-- A ten-times larger sample of user_id guesses ~100,000 users (100 rows each).
alter table public.user_watched_movies alter column user_id set statistics 1000;

-- Takes effect now rather than at the next automatic analyze.
analyze public.user_watched_movies (user_id);
