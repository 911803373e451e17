/**
 * The watched page's numbers, rendered on the server: movies, hours, this year, the average
 * rating (in stars) and the top genres as bars (a styled <progress>: no chart library, and
 * no inline style, which the CSP forbids).
 */
import type { WatchedStats } from "../lib/library/entries/mod.ts";
import { DetailsPending } from "./DetailsPending.tsx";
import {
  averageStars,
  countText,
  hoursOf,
  hoursText,
  ratedViewings,
} from "../lib/library/diary/stats_figures.ts";

/** The strip; nothing for an empty history. */
export function StatsStrip({ stats, year }: { stats: WatchedStats; year: number }) {
  if (stats.movies === 0) return null;
  const top = stats.topGenres[0]?.count ?? 1;
  const figures: [string, string][] = [
    [countText(stats.movies), stats.movies === 1 ? "movie" : "movies"],
    [hoursText(hoursOf(stats.minutes)), "hours watched"],
    [countText(stats.thisYear), `watched in ${year}`],
    [
      stats.averageRating === null ? "–" : averageStars(stats.averageRating),
      stats.averageRating === null
        ? "no ratings yet"
        : `average of ${ratedViewings(stats.rated)} (out of 5)`,
    ],
  ];
  return (
    <section class="stats" aria-labelledby="stats-heading">
      <h2 id="stats-heading" class="sr-only">Your numbers</h2>
      <dl class="stats-figures">
        {figures.map(([value, label]) => (
          <div key={label} class="stat">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <DetailsPending films={stats.incomplete} />
      {stats.topGenres.length
        ? (
          <div class="stats-genres">
            <h3 class="stats-genres-heading">Top genres</h3>
            <ul>
              {stats.topGenres.map((g) => (
                <li key={g.name}>
                  <span class="bar-label">{g.name}</span>
                  <progress class="bar" aria-hidden="true" max={top} value={g.count} />
                  <span class="bar-count">{g.count}</span>
                </li>
              ))}
            </ul>
          </div>
        )
        : null}
    </section>
  );
}
