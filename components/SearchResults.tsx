/** Search and popular rows as cards (server pages and the LiveSearch island). */
import { genreNames } from "../lib/catalog/genres.ts";
import type { SearchRow } from "../lib/catalog/types.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { cardFacts, MovieCard } from "./MovieCard.tsx";
import { MovieGrid } from "./MovieGrid.tsx";
import { Notice } from "./Notice.tsx";

/** Search or popular rows as a grid of cards. */
export function RowGrid(
  { label, rows, imageBaseUrl, level }: {
    label: string;
    rows: SearchRow[];
    imageBaseUrl: string;
    /** The card titles' heading level (3 under a section's h2). */
    level?: 2 | 3;
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
        />
      ))}
    </MovieGrid>
  );
}

/** `rows` undefined: nothing searched yet. */
export function SearchResults(
  { q, rows, imageBaseUrl }: { q: string; rows?: SearchRow[]; imageBaseUrl: string },
) {
  if (!rows) return null;
  if (!rows.length) {
    return <Notice>No movies match “{q}”. Check the spelling or try another title.</Notice>;
  }
  return (
    <>
      <p class="count">{rows.length === 1 ? "1 movie" : `${rows.length} movies`}</p>
      <RowGrid label={`Results for ${q}`} rows={rows} imageBaseUrl={imageBaseUrl} />
    </>
  );
}
