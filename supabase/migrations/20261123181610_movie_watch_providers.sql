-- Contract section 13: TMDB's watch/providers `results` (per region) stored with the movie,
-- fetched with its details; refreshed through the window once older than 7 days.

alter table public.movies
  add column watch_providers jsonb,
  add column providers_cached_at timestamptz;
