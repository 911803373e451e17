/** One recommended movie: its card with the reason and the quick actions (used by the island). */
import type { Pick } from "../lib/web/recommend_picks.ts";
import { cardFacts, MovieCard } from "./MovieCard.tsx";

/** The quick actions of a card. */
export type PickAction = "watched" | "mylist" | "dismiss";

/** The card; `busy` disables its buttons while one of them is being saved. */
export function RecommendationCard(
  { pick, busy, onAction }: {
    pick: Pick;
    busy: boolean;
    onAction?: (pick: Pick, action: PickAction) => void;
  },
) {
  const name = pick.title || `movie #${pick.catalogId}`;
  const act = (action: PickAction) => () => onAction?.(pick, action);
  return (
    <MovieCard
      id={pick.catalogId}
      title={pick.loaded ? pick.title : "Loading…"}
      posterUrl={pick.posterUrl}
      facts={pick.loaded ? cardFacts(pick.year, pick.genres) : undefined}
      reason={pick.reason}
    >
      <div class="pick-actions">
        <button
          type="button"
          class="button button-small button-quiet"
          disabled={busy}
          onClick={act("watched")}
          aria-label={`Mark ${name} as watched`}
        >
          Watched
        </button>
        <button
          type="button"
          class={pick.inMyList
            ? "button button-small button-on"
            : "button button-small button-quiet"}
          aria-pressed={pick.inMyList}
          disabled={busy}
          onClick={act("mylist")}
          aria-label={pick.inMyList ? `${name} is in My List` : `Add ${name} to My List`}
        >
          {pick.inMyList ? "✓ My List" : "My List"}
        </button>
        <button
          type="button"
          class="button button-small button-quiet"
          disabled={busy}
          onClick={act("dismiss")}
          aria-label={`Not interested in ${name}`}
        >
          Not interested
        </button>
      </div>
    </MovieCard>
  );
}
