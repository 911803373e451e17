/**
 * The world the local recommender's and movie night's benchmarks share (scripts/bench/
 * local_recommend.ts, night.ts): movies with features as a catalogue spreads them, and the
 * percentile and timing both report with. A folder of its own, so `deno task bench` does not run
 * it as a benchmark.
 */

/** The `p` quantile (0..1) of `xs`. */
export const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** How long `fn` took, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Inserts movies 1..$1 with features as a catalogue spreads them: a few common genres and
 * languages, long tails of keywords, people and collections (ids picked by a multiplicative hash
 * of the film's id).
 */
export const FEATURE_MOVIES_SQL =
  `insert into public.movies (catalog_id, title, original_title, year, genres,
    keywords, directors, actors, collection_id, collection_name, original_language, runtime,
    popularity, vote_average, vote_count, has_details)
  select g, 'Movie ' || g, 'Movie ' || g, 1920 + (g * 7919) % 106,
    array(select (array['Action','Adventure','Animation','Comedy','Crime','Documentary','Drama',
      'Family','Fantasy','History','Horror','Music','Mystery','Romance','Science Fiction',
      'TV Movie','Thriller','War','Western'])[1 + (g * k * 31) % 19] from generate_series(1, 1 + g % 3) k),
    array(select 'keyword ' || ((g * 2654435761::bigint + k * 40503) % 20000)
      from generate_series(1, 3 + g % 7) k),
    array['Director ' || ((g * 48271) % 15000)],
    array(select 'Actor ' || ((g * 69621::bigint + k * 16807) % 60000) from generate_series(1, 5) k),
    case when g % 10 = 0 then (g / 10) % 3000 + 1 end,
    case when g % 10 = 0 then 'Collection ' || ((g / 10) % 3000 + 1) end,
    (array['en','en','en','en','fr','es','de','ja','ko','it','zh','hi','ru','pt','sv','da',
      'nl','pl','tr','fa'])[1 + (g * 13) % 20],
    70 + (g * 17) % 110, ((g * 7) % 1000) / 10.0, 4 + ((g * 11) % 50) / 10.0, (g * 3) % 5000, true
  from generate_series(1::bigint, $1::bigint) g`;
