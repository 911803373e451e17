-- The watched list's first page in its other default sorts (docs/lists.md): newest watch date
-- first and highest rating first read an index range of 61 rows instead of sorting the whole
-- history. Only the default direction of each: the reverse orders (oldest date, lowest rating)
-- are rarer, and every index costs each write of a 10,000-film import.
create index if not exists user_watched_movies_watched_on_idx on public.user_watched_movies
  (user_id, watched_on desc nulls last, created_at desc, catalog_id desc);
create index if not exists user_watched_movies_rating_idx on public.user_watched_movies
  (user_id, rating desc nulls last, created_at desc, catalog_id desc);
