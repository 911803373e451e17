/**
 * The cards of a shared list (/s/:slug), for anyone with the link: 60 a page, and "More" that
 * is a link to `?page=N+1` without JavaScript and appends the next 60 in place with it (no
 * account needed), focus moving to the first new card's link.
 */
import { useState } from "preact/hooks";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { MoreLink } from "../components/MoreLink.tsx";
import { MovieGrid } from "../components/MovieGrid.tsx";
import type { ListCard } from "../lib/library/lists/sql.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { type NextPage, useMore } from "../lib/web/use_more.ts";

/** The list's name (the grid's label), whether it is ranked, its cards and the page after. */
interface SharedGridProps {
  name: string;
  ranked: boolean;
  movies: ListCard[];
  imageBaseUrl: string;
  more?: NextPage;
}

/** The grid, a status line and More. */
export default function SharedGrid(props: SharedGridProps) {
  const [movies, setMovies] = useState(props.movies);
  const [status, setStatus] = useState("");
  const more = useMore(props.more, {
    auth: false,
    take: (body) => body.movies as ListCard[],
    append(page) {
      const known = new Set(movies.map((m) => m.catalogId));
      const added = page.filter((m) => !known.has(m.catalogId));
      setMovies((all) => [...all, ...added]);
      return added;
    },
    focusOf: (m) => `.shared-grid .card-link[href="/movies/${m.catalogId}"]`,
    say: (text) => setStatus(text),
  });
  return (
    <div class="shared-grid">
      <MovieGrid label={props.name}>
        {movies.map((m) => (
          <MovieCard
            key={m.catalogId}
            id={m.catalogId}
            title={props.ranked ? `${m.position}. ${m.title || `Movie #${m.catalogId}`}` : m.title}
            posterUrl={cardPosterUrl(props.imageBaseUrl, m.posterPath)}
            facts={cardFacts(m.year, m.genres)}
            details={m.note ? <p class="card-note">{m.note}</p> : undefined}
          />
        ))}
      </MovieGrid>
      <p class="status" role="status">{status}</p>
      <MoreLink more={more} />
    </div>
  );
}
