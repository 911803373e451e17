/**
 * One recommended movie: its card with the reason and the quick actions (used by the island).
 * What an action did is said at the card itself, where the user is looking: a card that left
 * the set stays in its place, dimmed, with the message and Undo until the page is left. The
 * buttons are never disabled (keyboard focus would fall to the page); a press while busy does
 * nothing.
 */
import type { ComponentChildren } from "preact";
import type { CardNote, PickAction } from "../lib/web/pick_actions.ts";
import type { Pick } from "../lib/web/recommend_picks.ts";
import { cardFacts, MovieCard } from "./MovieCard.tsx";

/**
 * The card; `note` is what its last action said, `busy` while one is being saved; `children`
 * join the actions (the island's "Add to list").
 */
export function RecommendationCard(
  { pick, busy, note, onAction, onUndo, onThumb, children }: {
    pick: Pick;
    busy: boolean;
    note?: CardNote;
    onAction?: (pick: Pick, action: PickAction) => void;
    onUndo?: (pick: Pick) => void;
    /** 👍 pressed (or pressed again to take it back); "Not interested" is the 👎 side. */
    onThumb?: (pick: Pick) => void;
    children?: ComponentChildren;
  },
) {
  const name = pick.title || `movie #${pick.catalogId}`;
  const act = (action: PickAction) => () => busy || onAction?.(pick, action);
  const action = (kind: PickAction, text: string, label: string, pressed?: boolean) => (
    <button
      type="button"
      class={pressed ? "button button-small button-on" : "button button-small button-quiet"}
      data-action={`${kind}-${pick.catalogId}`}
      aria-pressed={pressed}
      aria-disabled={busy ? "true" : undefined}
      onClick={act(kind)}
      aria-label={label}
    >
      {text}
    </button>
  );
  const status = (
    <p class={`status pick-status ${note?.error ? "status-error" : ""}`} role="status">
      {note?.text}
      {note?.gone
        ? (
          <>
            {" "}
            <button
              type="button"
              class="link-button"
              data-undo={pick.catalogId}
              onClick={() => busy || onUndo?.(pick)}
            >
              Undo
            </button>
          </>
        )
        : null}
    </p>
  );
  return (
    <MovieCard
      id={pick.catalogId}
      title={pick.loaded ? pick.title : "Loading…"}
      posterUrl={pick.posterUrl}
      facts={pick.loaded ? cardFacts(pick.year, pick.genres) : undefined}
      reason={pick.reason}
    >
      {note?.gone ? <div class="pick-gone">{status}</div> : (
        <>
          <div class="pick-actions">
            {action("watched", "Mark watched", `Mark watched: ${name}`)}
            {action(
              "mylist",
              pick.inMyList ? "✓ My List" : "My List",
              pick.inMyList ? `${name} is in My List` : `Add ${name} to My List`,
              pick.inMyList,
            )}
            {action("dismiss", "Not interested", `Not interested in ${name}`)}
            {onThumb
              ? (
                <button
                  type="button"
                  class={pick.thumb === 1
                    ? "button button-small button-on"
                    : "button button-small button-quiet"}
                  data-action={`thumb-${pick.catalogId}`}
                  aria-pressed={pick.thumb === 1}
                  aria-disabled={busy ? "true" : undefined}
                  aria-label={`Thumbs up: ${name}`}
                  onClick={() => busy || onThumb(pick)}
                >
                  👍
                </button>
              )
              : null}
            {children}
          </div>
          {status}
        </>
      )}
    </MovieCard>
  );
}
