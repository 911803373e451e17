/**
 * The year in review (or all time): the figures, a bar chart of viewings by month, the rating
 * histogram, and the top films, genres, directors and actors. Server-rendered, no JavaScript.
 */
import type { YearStats } from "../lib/library/diary/mod.ts";
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
          <dd>{stats.films}</dd>
        </div>
        <div>
          <dt>Viewings</dt>
          <dd>{stats.viewings}</dd>
        </div>
        <div>
          <dt>Rewatches</dt>
          <dd>{stats.rewatches}</dd>
        </div>
        <div>
          <dt>Hours</dt>
          <dd>{stats.hours}</dd>
        </div>
        <div>
          <dt>Average rating</dt>
          <dd>{stats.ratings.average === null ? "–" : stars(Math.round(stats.ratings.average))}</dd>
        </div>
      </dl>
      <DetailsPending films={stats.incomplete} />
      {stats.viewings === 0
        ? <p class="lead">Nothing logged {stats.year === null ? "yet" : `in ${label}`}.</p>
        : null}
      {byMonth.length > 0
        ? <BarChart bars={byMonth} caption={`Viewings in ${label} by month`} unit="Viewings" />
        : null}
      {stats.ratings.count > 0
        ? <BarChart bars={ratings} caption={`Ratings in ${label} by stars`} unit="Viewings" />
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
