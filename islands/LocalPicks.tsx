/**
 * The recommendations page's local picks (docs/recommend.md, "Two stages"): cards read on the
 * server (free: no AI, no quota) with their reasons, each with 👍/👎 (POST and DELETE
 * /api/recommend/feedback). A pressed thumb pressed again takes it back; 👎 also says the film
 * will not be suggested again. The buttons are never disabled: focus stays where it is.
 */
import { useState } from "preact/hooks";
import { MovieGrid } from "../components/MovieGrid.tsx";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import AddToList from "./AddToList.tsx";

/** One local pick as the server rendered it. */
interface LocalPickCard {
  catalogId: number;
  title: string;
  year: number;
  genres: string[];
  posterUrl: string;
  reasons: string[];
  /** 1 👍, -1 👎, 0 none. */
  thumb: number;
}

/** The grid of local picks. */
export default function LocalPicks({ cards }: { cards: LocalPickCard[] }) {
  const [thumbs, setThumbs] = useState<Record<number, number>>(
    Object.fromEntries(cards.map((c) => [c.catalogId, c.thumb])),
  );
  const [notes, setNotes] = useState<Record<number, { text: string; error: boolean }>>({});
  const [busy, setBusy] = useState<number | null>(null);

  async function press(card: LocalPickCard, value: 1 | -1) {
    if (busy !== null) return;
    const before = thumbs[card.catalogId] ?? 0;
    const undo = before === value;
    setBusy(card.catalogId);
    try {
      await api("/api/recommend/feedback", {
        method: undo ? "DELETE" : "POST",
        auth: true,
        body: undo ? { catalogId: card.catalogId } : { catalogId: card.catalogId, value },
      });
      setThumbs((t) => ({ ...t, [card.catalogId]: undo ? 0 : value }));
      const name = card.title || "This film";
      const text = undo
        ? value === -1 ? `${name} may be suggested again.` : "Thumbs up taken back."
        : value === 1
        ? "Noted: more like this."
        : `Noted: fewer like this. ${name} won't be suggested again.`;
      setNotes((n) => ({ ...n, [card.catalogId]: { text, error: false } }));
    } catch (e) {
      const text = e instanceof ApiError ? e.message : "That could not be saved; try again.";
      setNotes((n) => ({ ...n, [card.catalogId]: { text, error: true } }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <MovieGrid label="Picked from your history">
      {cards.map((card) => {
        const thumb = thumbs[card.catalogId] ?? 0;
        const name = card.title || `movie #${card.catalogId}`;
        const note = notes[card.catalogId];
        const button = (value: 1 | -1, text: string, label: string) => (
          <button
            type="button"
            class={thumb === value
              ? "button button-small button-on"
              : "button button-small button-quiet"}
            aria-pressed={thumb === value}
            aria-label={`${label}: ${name}`}
            aria-disabled={busy === card.catalogId ? "true" : undefined}
            data-thumb={`${value === 1 ? "up" : "down"}-${card.catalogId}`}
            onClick={() => press(card, value)}
          >
            {text}
          </button>
        );
        return (
          <MovieCard
            key={card.catalogId}
            id={card.catalogId}
            title={card.title}
            level={3}
            posterUrl={card.posterUrl}
            facts={cardFacts(card.year, card.genres)}
            reason={card.reasons.join(" · ")}
          >
            <div class="pick-actions">
              {button(1, "👍", "Thumbs up")}
              {button(-1, "👎", "Thumbs down")}
              <AddToList catalogId={card.catalogId} title={card.title} compact />
            </div>
            <p class={`status pick-status ${note?.error ? "status-error" : ""}`} role="status">
              {note?.text}
            </p>
          </MovieCard>
        );
      })}
    </MovieGrid>
  );
}
