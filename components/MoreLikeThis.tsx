/**
 * "More like this" on a movie's page (docs/recommend.md, "Local picks"): the stored films the
 * local model finds closest, each with the reason it is there. Nothing when none shares anything.
 */
import type { SimilarCard } from "@/lib/recommend/local/mod.ts";
import { cardPosterUrl } from "@/lib/web/poster.ts";
import { usePage } from "@/lib/http/page_context.ts";
import { cardFacts, MovieCard } from "./MovieCard.tsx";
import { MovieGrid } from "./MovieGrid.tsx";

/** The section, under its own heading; `movies` come from GET /api/movies/:id/similar's service. */
export function MoreLikeThis({ movies }: { movies: SimilarCard[] }) {
  const { imageBaseUrl } = usePage();
  if (movies.length === 0) return null;
  return (
    <section class="more-like-this" aria-labelledby="more-like-this-heading">
      <h2 id="more-like-this-heading">More like this</h2>
      <MovieGrid label="More like this">
        {movies.map((m) => (
          <MovieCard
            key={m.catalogId}
            id={m.catalogId}
            title={m.title}
            posterUrl={cardPosterUrl(imageBaseUrl, m.posterPath)}
            facts={cardFacts(m.year, m.genres)}
            reason={m.reasons.slice(0, 2).join(" · ")}
            level={3}
          />
        ))}
      </MovieGrid>
    </section>
  );
}
