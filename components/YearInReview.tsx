/**
 * The year in review (or all time): the figures, a bar chart of viewings by month, the rating
 * histogram, and the top films, genres, directors and actors. Server-rendered, no JavaScript.
 */
import type { YearStats } from "../lib/library/diary/mod.ts";
import {
  averageStars,
  countText,
  hoursText,
  ratedViewings,
} from "../lib/library/diary/stats_figures.ts";
import type { MovieCard } from "../lib/catalog/cards.ts";
import { type Bar, BarChart } from "./BarChart.tsx";
import { DetailsPending } from "./DetailsPending.tsx";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function stars(rating: number): string {
  return `${rating / 2}★`;
}

function TopList({ title, items }: { title: string; items: { name: string; count: number }[] }) {
  if (items.length === 0) return null;
  return (
    <section class="review-top">
      <h2>{title}</h2>
      <ol>
        {items.map((i) => (
          <li key={i.name}>
            {i.name} <span class="muted">({i.count})</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The line under the figures that says how they add up (docs/diary.md, "The figures, one
 * definition each"): a rewatch is a viewing of a film seen before, also before the period, so
 * it can outnumber viewings minus films, which counts only the repeats within the period; and
 * what the average is taken over.
 */
function FiguresNote({ stats, label }: { stats: YearStats; label: string }) {
  const repeats = countText(stats.viewings - stats.films);
  const rewatches = `Rewatches count every viewing of a film you had seen before, ${
    stats.year === null ? "before your diary began" : `before ${label}`
  } too; viewings minus films (${repeats}) counts only the repeats ${
    stats.year === null ? "in your diary" : `within ${label}`
  }.`;
  const average = stats.ratings.count > 0
    ? `The average rating is over ${ratedViewings(stats.ratings.count)}, each at its own rating.`
    : "No viewing is rated yet.";
  return <p class="hint review-note">{rewatches} {average}</p>;
}

/** The page body of /stats and /stats/YYYY; `years` are the links to other years. */
export function YearInReview(
  { stats, top, years }: { stats: YearStats; top: MovieCard[]; years: number[] },
) {
  const label = stats.year === null ? "All time" : String(stats.year);
  const byMonth: Bar[] = (stats.byMonth ?? []).map((value, i) => ({
    label: MONTHS[i],
    name: MONTH_NAMES[i],
    value,
  }));
  const ratings: Bar[] = Object.entries(stats.ratings.histogram).map(([r, value]) => ({
    label: stars(Number(r)),
    name: `${Number(r) / 2} stars`,
    value,
  }));
  return (
    <article class="review" aria-labelledby="review-heading">
      <h1 id="review-heading">
        {stats.year === null ? "Your watching, all time" : `${label} in review`}
      </h1>
      <nav class="review-years" aria-label="Years">
        <a href="/stats" aria-current={stats.year === null ? "page" : undefined}>All time</a>
        {years.map((y) => (
          <a key={y} href={`/stats/${y}`} aria-current={stats.year === y ? "page" : undefined}>
            {y}
          </a>
        ))}
      </nav>
      <dl class="review-figures">
        <div>
          <dt>Films</dt>
          <dd>{countText(stats.films)}</dd>
        </div>
        <div>
          <dt>Viewings</dt>
          <dd>{countText(stats.viewings)}</dd>
        </div>
        <div>
          <dt>Rewatches</dt>
          <dd>{countText(stats.rewatches)}</dd>
        </div>
        <div>
          <dt>Hours</dt>
          <dd>{hoursText(stats.hours)}</dd>
        </div>
        <div>
          <dt>Average rating</dt>
          <dd>{stats.ratings.average === null ? "–" : averageStars(stats.ratings.average)}</dd>
        </div>
      </dl>
      <DetailsPending films={stats.incomplete} />
      {stats.viewings > 0 ? <FiguresNote stats={stats} label={label} /> : null}
      {stats.viewings === 0
        ? <p class="lead">Nothing logged {stats.year === null ? "yet" : `in ${label}`}.</p>
        : null}
      {byMonth.length > 0
        ? <BarChart bars={byMonth} caption={`Viewings in ${label} by month`} unit="Viewings" />
        : null}
      {stats.ratings.count > 0
        ? (
          <BarChart
            bars={ratings}
            caption={`Rated viewings in ${label} by stars`}
            unit="Rated viewings"
          />
        )
        : null}
      {top.length > 0
        ? (
          <section class="review-top">
            <h2>Top rated</h2>
            <ol>
              {top.map((m) => (
                <li key={m.catalogId}>
                  <a href={`/movies/${m.catalogId}`}>{m.title || `Movie ${m.catalogId}`}</a>
                  {m.year ? <span class="muted">({m.year})</span> : null}
                </li>
              ))}
            </ol>
          </section>
        )
        : null}
      <div class="review-lists">
        <TopList title="Genres" items={stats.genres} />
        <TopList title="Directors" items={stats.directors} />
        <TopList title="Actors" items={stats.actors} />
        <TopList
          title="Decades"
          items={stats.decades.map((d) => ({ name: `${d.decade}s`, count: d.count }))}
        />
      </div>
    </article>
  );
}
