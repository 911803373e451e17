/**
 * The kept watched counts of a user (docs/entries.md, "Counts kept on write") beside the same
 * figures computed from the rows, for tests that check the two agree after a write. `$1`: the
 * user's id; both in period order.
 */

/** What `public.user_watched_counts` holds for the user. */
export const KEPT_COUNTS_SQL = `select period, movies, minutes::int as minutes, rated, rating_sum
  from public.user_watched_counts where user_id = $1 order by period`;

/** The counts from scratch, as the kept rows would hold them. */
export const SCRATCH_COUNTS_SQL = `select p.period, count(*)::int as movies,
    coalesce(sum(coalesce(m.runtime, 0)), 0)::int as minutes,
    count(w.rating)::int as rated, coalesce(sum(w.rating), 0)::int as rating_sum
  from public.user_watched_movies w
  left join public.movies m on m.catalog_id = w.catalog_id
  cross join lateral (select 0 as period union all
    select extract(year from w.watched_on)::int where w.watched_on is not null) p
  where w.user_id = $1
  group by p.period order by p.period`;
