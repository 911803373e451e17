/** Search and popular rows as cards (server pages and the LiveSearch island). */
import type { ComponentChildren } from "preact";
import { genreNames } from "../lib/catalog/genres.ts";
import type { SearchRow, UnlistedRow } from "../lib/catalog/types.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { cardFacts, MovieCard } from "./MovieCard.tsx";
import { MovieGrid } from "./MovieGrid.tsx";
import { Notice } from "./Notice.tsx";

/** What a card carries below it (signed in: "Add to list"), the same on every search card. */
type RowActions = (row: { id: number; title: string }) => ComponentChildren;

/** Search or popular rows as a grid of cards. */
export function RowGrid(
  { label, rows, imageBaseUrl, level, actions }: {
    label: string;
    rows: SearchRow[];
    imageBaseUrl: string;
    /** The card titles' heading level (3 under a section's h2). */
    level?: 2 | 3;
    actions?: RowActions;
  },
) {
  return (
    <MovieGrid label={label}>
      {rows.map((row) => (
        <MovieCard
          key={row.id}
          id={row.id}
          level={level}
          title={row.title}
          posterUrl={cardPosterUrl(imageBaseUrl, row.poster_path)}
          facts={cardFacts(
            Number(row.release_date.slice(0, 4)) || 0,
            genreNames(row.genre_ids),
            row.vote_average,
          )}
        >
          {actions?.(row)}
        </MovieCard>
      ))}
    </MovieGrid>
  );
}

/**
 * What a film the search found without a date, rating or poster says instead: "Not yet
 * released" (no date, or a date after `today`, YYYY-MM-DD) and "Not rated yet" (no votes).
 */
function unlistedFacts(row: UnlistedRow, today: string): string {
  const year = Number(row.release_date?.slice(0, 4)) || 0;
  const parts = [cardFacts(year, genreNames(row.genre_ids))].filter(Boolean);
  if (!row.release_date || row.release_date > today) parts.push("Not yet released");
  if (!row.vote_average) parts.push("Not rated yet");
  return parts.join(" · ");
}

/**
 * The films the API leaves out (docs/website.md), after the rest and marked; they carry the
 * same actions as the other cards (a film with no date yet is still worth a list).
 */
function UnlistedGrid(
  { q, rows, imageBaseUrl, actions }: {
    q: string;
    rows: UnlistedRow[];
    imageBaseUrl: string;
    actions?: RowActions;
  },
) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <section class="unlisted" aria-labelledby="unlisted-heading">
      <h2 id="unlisted-heading">Also found: no poster, date or rating yet</h2>
      <MovieGrid label={`Also found for ${q}`}>
        {rows.map((row) => (
          <MovieCard
            key={row.id}
            id={row.id}
            level={3}
            title={row.title}
            posterUrl={cardPosterUrl(imageBaseUrl, row.poster_path ?? "")}
            facts={unlistedFacts(row, today)}
          >
            {actions?.(row)}
          </MovieCard>
        ))}
      </MovieGrid>
    </section>
  );
}

/** `rows` undefined: nothing searched yet; `page` when the rows are one page past the first. */
export function SearchResults(
  { q, rows, unlisted = [], page = 1, more = false, imageBaseUrl, actions }: {
    q: string;
    rows?: SearchRow[];
    /** Films without poster, date or rating: shown after `rows`, marked. */
    unlisted?: UnlistedRow[];
    page?: number;
    /** More pages may follow: the count is of the movies shown so far, not of every match. */
    more?: boolean;
    imageBaseUrl: string;
    actions?: RowActions;
  },
) {
  if (!rows) return null;
  if (!rows.length && !unlisted.length) {
    return page > 1
      ? <Notice>No more movies match “{q}”.</Notice>
      : <Notice>No movies match “{q}”. Check the spelling or try another title.</Notice>;
  }
  const total = rows.length + unlisted.length;
  const count = total === 1 ? "1 movie" : `${total} movies`;
  return (
    <>
      <p class="count">
        {page > 1 ? `${count} on page ${page}` : more ? `${count} shown; more below` : count}
      </p>
      {rows.length
        ? (
          <RowGrid
            label={`Results for ${q}`}
            rows={rows}
            imageBaseUrl={imageBaseUrl}
            actions={actions}
          />
        )
        : null}
      {unlisted.length
        ? <UnlistedGrid q={q} rows={unlisted} imageBaseUrl={imageBaseUrl} actions={actions} />
        : null}
    </>
  );
}

/** The search URL of `q` at `page`. */
function searchHref(q: string, page: number): string {
  const query = `/search?q=${encodeURIComponent(q)}`;
  return page > 1 ? `${query}&page=${page}` : query;
}

/**
 * Links to the previous page and to more results (plain links without JavaScript; with it,
 * `onMore` appends the next page in place).
 */
export function SearchPager(
  { q, first, last, more, busy = false, onMore }: {
    q: string;
    first: number;
    last: number;
    more: boolean;
    busy?: boolean;
    onMore?: () => void;
  },
) {
  if (first <= 1 && !more && last <= 1) return null;
  return (
    <nav class="pager" aria-label="Search pages">
      {first > 1 ? <a href={searchHref(q, first - 1)}>← Previous page</a> : null}
      {more
        ? (
          <a
            class="button button-secondary"
            href={searchHref(q, last + 1)}
            aria-disabled={busy ? "true" : undefined}
            onClick={onMore
              ? (event) => {
                event.preventDefault();
                if (!busy) onMore();
              }
              : undefined}
          >
            {busy ? "Loading…" : "More results"}
          </a>
        )
        : last > 1
        ? <span class="count" id="search-end" tabIndex={-1}>That's all for “{q}”.</span>
        : null}
    </nav>
  );
}
