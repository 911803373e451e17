/**
 * The answer on the /tonight page (islands/Tonight.tsx): how the search was read, as chips that
 * each remove themselves, the count, and the films as cards with their reasons.
 */
import { MovieGrid } from "./MovieGrid.tsx";
import { cardFacts, MovieCard } from "./MovieCard.tsx";
import type { TonightAnswer } from "../lib/recommend/tonight/mod.ts";
import type { Chip } from "../lib/web/tonight_chips.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";

/** The results section; `onRemove` gets the chip, its index and how many there are. */
export function TonightResults(
  { answer, chips, asked, busy, imageBaseUrl, onRemove }: {
    answer: TonightAnswer;
    chips: Chip[];
    asked: "words" | "filters" | null;
    busy: boolean;
    imageBaseUrl: string;
    onRemove: (chip: Chip, index: number, count: number) => void;
  },
) {
  return (
    <section class="tonight-results" aria-labelledby="tonight-results-heading">
      <h2 id="tonight-results-heading">For tonight</h2>
      {chips.length
        ? (
          <>
            <p class="hint" id="tonight-chips-hint">
              {asked === "words" && answer.source === "ai"
                ? "How the AI read your words."
                : asked === "words"
                ? "How your words were read (without the AI)."
                : "Your filters."} Remove one to search again without it (no AI, nothing used up).
            </p>
            <ul class="chips tonight-chips" id="tonight-chips" aria-label="Filters">
              {chips.map((chip, i) => (
                <li key={chip.id}>
                  <button
                    type="button"
                    class="chip-remove"
                    aria-label={`Remove ${chip.label}`}
                    aria-describedby="tonight-chips-hint"
                    onClick={() => onRemove(chip, i, chips.length)}
                  >
                    {chip.label} <span aria-hidden="true">×</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )
        : null}
      <p class="status" role="status" id="tonight-results-status" tabIndex={-1}>
        {busy
          ? "Searching…"
          : answer.movies.length
          ? `${answer.movies.length} ${answer.movies.length === 1 ? "film" : "films"}.`
          : "No film here fits all of that. Remove a filter to widen the search."}
      </p>
      {answer.movies.length
        ? (
          <MovieGrid label="Films for tonight">
            {answer.movies.map((m) => (
              <MovieCard
                key={m.catalogId}
                id={m.catalogId}
                title={m.title}
                level={3}
                posterUrl={cardPosterUrl(imageBaseUrl, m.posterPath)}
                facts={cardFacts(m.year, m.genres) +
                  (m.runtime > 0 ? ` · ${m.runtime} min` : "")}
                reason={m.reasons.join(" · ")}
              />
            ))}
          </MovieGrid>
        )
        : null}
    </section>
  );
}
