-- "More like this" before the local recommender's index is built (docs/recommend.md, "Local
-- picks", "A cold start") finds the films sharing the page's film's collection, a director, a
-- keyword or a cast member through these indexes, instead of reading every stored film's arrays
-- (a quarter of a second at 100,000 films on the embedded store, with the server's one thread
-- held meanwhile).
create index movies_directors_gin_idx on public.movies using gin (directors);
create index movies_keywords_gin_idx on public.movies using gin (keywords);
create index movies_actors_gin_idx on public.movies using gin (actors);
create index movies_collection_id_idx on public.movies (collection_id)
  where collection_id is not null;
