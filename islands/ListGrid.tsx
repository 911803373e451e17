/**
 * The signed-in user's Watched or My List page body: the cards the server rendered (watched
 * ones with their rating and date), each with a remove button, and the empty state. A removal
 * offers "Undo", which takes focus (the removed button is gone); undoing puts the movie back
 * (a watched one with its rating, date and note) and focuses its card again.
 */
import { useEffect, useState } from "preact/hooks";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { MoreLink } from "../components/MoreLink.tsx";
import { MovieGrid } from "../components/MovieGrid.tsx";
import type { MovieCard as Card } from "../lib/catalog/cards.ts";
import type { WatchedEntry } from "../lib/library/entries/entry.ts";
import type { Availability } from "../lib/catalog/my_streaming/availability_sql.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { formatDate, ratingText, starsOf } from "../lib/web/entry_format.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { type NextPage, useMore } from "../lib/web/use_more.ts";
import AddToList from "./AddToList.tsx";
import SeerrRequest from "./SeerrRequest.tsx";

/** A card, with its entry on the watched page and where it streams on my services. */
export type ListCard = Card & { entry?: WatchedEntry; availability?: Availability[] };

const KIND = { flatrate: "", free: " (free)", ads: " (with ads)" };

/** "On Netflix, MUBI (free)": the badge of a card available on my services. */
function AvailableBadge({ offers }: { offers: Availability[] }) {
  if (offers.length === 0) return null;
  return (
    <p class="card-available">
      On {offers.map((o) => `${o.name || `service ${o.id}`}${KIND[o.kind] ?? ""}`).join(", ")}
    </p>
  );
}

/** Which list, its cards in the order shown, and the image root for posters. */
interface ListGridProps {
  list: "watched" | "mylist";
  cards: ListCard[];
  imageBaseUrl: string;
  /** The cards are filtered: an empty grid means no match, not an empty list. */
  filtered?: boolean;
  /**
   * The next page: its URL (the "More" link, which works without JavaScript) and the API read
   * that appends it in place with JavaScript. Absent on the last page.
   */
  more?: NextPage;
  /** The user has saved a Seerr: each card gets the Request button. */
  seerr?: boolean;
}

const NAMES = { watched: "Watched", mylist: "My List" };

type Message = { error: boolean; text: string; undo?: { card: ListCard; index: number } };

function EntryLine({ entry }: { entry: WatchedEntry }) {
  return (
    <p class="card-entry">
      {entry.rating
        ? (
          <span class="card-stars">
            <span aria-hidden="true">★ {starsOf(entry.rating)}</span>
            <span class="sr-only">Your rating: {ratingText(entry.rating)}</span>
          </span>
        )
        : <span>Not rated</span>}
      {entry.watchedOn ? <span>Watched {formatDate(entry.watchedOn)}</span> : null}
    </p>
  );
}

/** The grid, or the empty state. */
export default function ListGrid(
  { list, cards: initial, imageBaseUrl, filtered, more: firstMore, seerr }: ListGridProps,
) {
  const [cards, setCards] = useState(initial);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [focus, setFocus] = useState<string | null>(null);

  // Focus follows the change once it is rendered: the Undo button, or the restored card.
  useEffect(() => {
    if (!focus) return;
    document.querySelector<HTMLElement>(focus)?.focus();
    setFocus(null);
  }, [focus]);

  const nameOf = (card: Card) => card.title || `Movie #${card.catalogId}`;

  async function remove(card: ListCard) {
    if (busy !== null) return;
    setBusy(card.catalogId);
    setMessage(null);
    try {
      await api(`/api/${list}`, {
        method: "DELETE",
        body: { catalogId: card.catalogId },
        auth: true,
      });
      const index = cards.findIndex((c) => c.catalogId === card.catalogId);
      setCards((all) => all.filter((c) => c.catalogId !== card.catalogId));
      setMessage({
        error: false,
        text: `Removed “${nameOf(card)}” from ${NAMES[list]}.`,
        undo: { card, index },
      });
      setFocus(".list-grid .undo");
    } catch (error) {
      setMessage({ error: true, text: failure(error, `Couldn't remove “${nameOf(card)}”.`) });
    } finally {
      setBusy(null);
    }
  }

  async function undo({ card, index }: { card: ListCard; index: number }) {
    if (busy !== null) return;
    setBusy(card.catalogId);
    try {
      const { rating, watchedOn, note } = card.entry ?? {};
      await api(`/api/${list}`, {
        method: "POST",
        body: list === "watched" && card.entry
          ? { catalogId: card.catalogId, rating, watchedOn, note }
          : { catalogId: card.catalogId },
        auth: true,
      });
      setCards((all) => [...all.slice(0, index), card, ...all.slice(index)]);
      setMessage({ error: false, text: `Put “${nameOf(card)}” back in ${NAMES[list]}.` });
      setFocus(`.list-grid [data-remove="${card.catalogId}"]`);
    } catch (error) {
      setMessage({ error: true, text: failure(error, `Couldn't put “${nameOf(card)}” back.`) });
    } finally {
      setBusy(null);
    }
  }

  // "More" appends the next page in place; the link stays a plain link for the page after it.
  const more = useMore(firstMore, {
    auth: true,
    take: (body) => body.movies as ListCard[],
    append(page) {
      const known = new Set(cards.map((c) => c.catalogId));
      const added = page.filter((c) => !known.has(c.catalogId));
      setCards((all) => [...all, ...added]);
      return added;
    },
    focusOf: (card) => `.list-grid [data-remove="${card.catalogId}"]`,
    say: (text, error) => setMessage({ error, text }),
  });

  return (
    <div class="list-grid">
      <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
        {message?.text}
        {message?.undo
          ? (
            <>
              {" "}
              <button
                type="button"
                class="button button-small button-quiet undo"
                aria-disabled={busy !== null ? "true" : undefined}
                onClick={() => message.undo && undo(message.undo)}
              >
                Undo
              </button>
            </>
          )
          : null}
      </p>
      {cards.length === 0
        ? (
          <div class="notice notice-note">
            <p>
              {filtered
                ? `No movies in ${NAMES[list]} match these choices.`
                : list === "watched"
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
                details={card.entry || card.availability?.length
                  ? (
                    <>
                      {card.entry ? <EntryLine entry={card.entry} /> : null}
                      {card.availability ? <AvailableBadge offers={card.availability} /> : null}
                    </>
                  )
                  : null}
              >
                <button
                  type="button"
                  class="button button-small button-quiet"
                  data-remove={card.catalogId}
                  aria-disabled={busy === card.catalogId ? "true" : undefined}
                  onClick={() => remove(card)}
                  aria-label={`Remove ${nameOf(card)} from ${NAMES[list]}`}
                >
                  {busy === card.catalogId ? "Removing…" : "Remove"}
                </button>
                <AddToList catalogId={card.catalogId} title={card.title} compact />
                {seerr ? <SeerrRequest catalogId={card.catalogId} title={nameOf(card)} /> : null}
              </MovieCard>
            ))}
          </MovieGrid>
        )}
      <MoreLink more={more} />
    </div>
  );
}

function failure(error: unknown, what: string): string {
  return error instanceof ApiError && error.status === 401
    ? "Your session has expired. Sign in again to change your lists."
    : `${what} Please try again.`;
}
