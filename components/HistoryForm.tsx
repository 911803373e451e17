/**
 * The movie page's form for a watched movie's entry: the star rating, the watch date and a
 * private note, saved together with PATCH /api/watched/:catalogId. The Save button is never
 * disabled (focus would fall to the page); a second press while saving does nothing.
 */
import { useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import type { WatchedEntry } from "../lib/lists/entry.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { localToday } from "../lib/web/history_format.ts";
import { StarRating } from "./StarRating.tsx";

/** The entry as stored, and what to do with the saved one. */
export interface HistoryFormProps {
  entry: WatchedEntry;
  onSaved: (entry: WatchedEntry) => void;
}

const MAX_NOTE = 2000;

/** The form; its fields start from the stored entry. */
export function HistoryForm({ entry, onSaved }: HistoryFormProps) {
  const [rating, setRating] = useState(entry.rating);
  const [watchedOn, setWatchedOn] = useState(entry.watchedOn ?? "");
  const [note, setNote] = useState(entry.note ?? "");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  // Tomorrow is the API's bound: a user ahead of UTC may be on it already.
  const max = localToday(new Date(Date.now() + 86_400_000));

  async function save(event: Event) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const { data } = await api<{ entry: WatchedEntry }>(`/api/watched/${entry.catalogId}`, {
        method: "PATCH",
        body: { rating, watchedOn: watchedOn || null, note: note.trim() || null },
        auth: true,
      });
      onSaved(data.entry);
      setMessage({ error: false, text: "Saved." });
    } catch (error) {
      setMessage({
        error: true,
        text: error instanceof ApiError && error.status === 401
          ? "Your session has expired. Sign in again to save."
          : error instanceof ApiError
          ? error.message
          : "Saving failed. Please try again.",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="history form" onSubmit={save} aria-labelledby="history-heading">
      <h2 id="history-heading" class="history-heading">Your history</h2>
      <div class="field">
        <span class="label">Your rating</span>
        <StarRating
          value={rating}
          onChange={setRating}
          label="Your rating"
          describedBy="rating-hint"
        />
        <p id="rating-hint" class="hint">
          Arrow keys change it by half a star; Home or Delete clears it.
        </p>
      </div>
      <div class="field">
        <label for="watched-on">Watched on</label>
        <input
          id="watched-on"
          type="date"
          name="watchedOn"
          min="1874-01-01"
          max={max}
          value={watchedOn}
          aria-describedby="watched-on-hint"
          onInput={(e) => setWatchedOn(e.currentTarget.value)}
        />
        <p id="watched-on-hint" class="hint">Leave it empty if you don't remember.</p>
      </div>
      <div class="field">
        <label for="watched-note">Note</label>
        <textarea
          id="watched-note"
          name="note"
          rows={3}
          maxLength={MAX_NOTE}
          value={note}
          aria-describedby="watched-note-hint"
          onInput={(e) => setNote(e.currentTarget.value)}
        />
        <p id="watched-note-hint" class="hint">
          Private: only you see it. At most 2,000 characters.
        </p>
      </div>
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
      <FormStatus message={message} />
    </form>
  );
}
