/**
 * The signed-in user's Watched or My List page body: the cards the server rendered, each
 * with a remove button, and the empty state once the last one is gone.
 */
import { useState } from "preact/hooks";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { MovieGrid } from "../components/MovieGrid.tsx";
import type { MovieCard as Card } from "../lib/lists/cards.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";

/** Which list, its cards in list order, and the image root for posters. */
export interface ListGridProps {
  list: "watched" | "mylist";
  cards: Card[];
  imageBaseUrl: string;
}

const NAMES = { watched: "Watched", mylist: "My List" };

/** The grid, or the empty state. */
export default function ListGrid({ list, cards: initial, imageBaseUrl }: ListGridProps) {
  const [cards, setCards] = useState(initial);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function remove(card: Card) {
    const name = card.title || `Movie #${card.catalogId}`;
    setBusy(card.catalogId);
    setMessage(null);
    try {
      await api(`/api/${list}`, {
        method: "DELETE",
        body: { catalogId: card.catalogId },
        auth: true,
      });
      setCards((all) => all.filter((c) => c.catalogId !== card.catalogId));
      setMessage({ error: false, text: `Removed “${name}” from ${NAMES[list]}.` });
    } catch (error) {
      setMessage({
        error: true,
        text: error instanceof ApiError && error.status === 401
          ? "Your session has expired. Sign in again to change your lists."
          : `Couldn't remove “${name}”. Please try again.`,
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div class="list-grid">
      <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
        {message?.text}
      </p>
      {cards.length === 0
        ? (
          <div class="notice notice-note">
            <p>
              {list === "watched"
                ? "You haven't marked any movies as watched yet."
                : "My List is empty. Save movies you want to watch later."}
            </p>
            <p>
              <a href="/">Browse popular movies</a> or <a href="/search">search</a>.
            </p>
          </div>
        )
        : (
          <MovieGrid label={NAMES[list]}>
            {cards.map((card) => (
              <MovieCard
                key={card.catalogId}
                id={card.catalogId}
                title={card.title}
                posterUrl={cardPosterUrl(imageBaseUrl, card.posterPath)}
                facts={cardFacts(card.year, card.genres)}
              >
                <button
                  type="button"
                  class="button button-small button-quiet"
                  disabled={busy === card.catalogId}
                  onClick={() => remove(card)}
                  aria-label={`Remove ${card.title || `movie #${card.catalogId}`} from ${
                    NAMES[list]
                  }`}
                >
                  {busy === card.catalogId ? "Removing…" : "Remove"}
                </button>
              </MovieCard>
            ))}
          </MovieGrid>
        )}
    </div>
  );
}
