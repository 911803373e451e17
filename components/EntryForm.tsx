/**
 * The movie page's form for a watched movie's entry: the star rating, the watch date and a
 * private note. The rating is saved as soon as it is set (a tap, a key), the way Letterboxd and
 * Trakt do, so it is never lost for want of a Save; Save keeps the date and the note (and the
 * rating with them), all with PATCH /api/watched/:catalogId. The Save button is never disabled
 * (focus would fall to the page); a second press while saving does nothing.
 */
import { useRef, useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import type { WatchedEntry } from "../lib/library/entries/entry.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { localToday, ratingText } from "../lib/web/entry_format.ts";
import { StarRating } from "./StarRating.tsx";

/** The entry as stored, and what to do with the saved one. */
interface EntryFormProps {
  entry: WatchedEntry;
  onSaved: (entry: WatchedEntry) => void;
}

const MAX_NOTE = 2000;

/** The form; its fields start from the stored entry. */
export function EntryForm({ entry, onSaved }: EntryFormProps) {
  const [rating, setRating] = useState(entry.rating);
  const [watchedOn, setWatchedOn] = useState(entry.watchedOn ?? "");
  const [note, setNote] = useState(entry.note ?? "");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const ratingSave = useRatingSave(entry.catalogId, onSaved, setMessage);
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
      setMessage({ error: true, text: saveFailure(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    // POST, never the default GET: without JavaScript a GET would put the private note in the
    // address bar (and history, and logs); the page's POST says saving needs JavaScript.
    <form
      class="history form"
      method="post"
      onSubmit={save}
      aria-labelledby="history-heading"
    >
      <h2 id="history-heading" class="history-heading">Your history</h2>
      <div class="field">
        <span class="label">Your rating</span>
        <StarRating
          value={rating}
          onChange={(next) => {
            setRating(next);
            ratingSave(next);
          }}
          label="Your rating"
          describedBy="rating-hint"
        />
        <p id="rating-hint" class="hint">
          Saved as you set it. Arrow keys change it by half a star; Home or Delete clears it.
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
        <p class="hint">Save keeps the date and the note.</p>
      </div>
      <FormStatus message={message} />
    </form>
  );
}

function saveFailure(error: unknown): string {
  return error instanceof ApiError && error.status === 401
    ? "Your session has expired. Sign in again to save."
    : error instanceof ApiError
    ? error.message
    : "Saving failed. Please try again.";
}

/**
 * Saves a rating the moment it changes. Key presses come faster than answers: one PATCH is in
 * flight at a time and the newest rating waiting is sent after it, so the last one set wins.
 */
function useRatingSave(
  catalogId: number,
  onSaved: (entry: WatchedEntry) => void,
  say: (message: { error: boolean; text: string }) => void,
): (rating: number | null) => void {
  const state = useRef<{ sending: boolean; next?: { rating: number | null } }>({ sending: false });
  async function send(): Promise<void> {
    const wanted = state.current.next;
    if (state.current.sending || !wanted) return;
    state.current = { sending: true };
    try {
      const { data } = await api<{ entry: WatchedEntry }>(`/api/watched/${catalogId}`, {
        method: "PATCH",
        body: { rating: wanted.rating },
        auth: true,
      });
      onSaved(data.entry);
      if (!state.current.next) {
        say({
          error: false,
          text: data.entry.rating
            ? `Rating saved: ${ratingText(data.entry.rating)}.`
            : "Rating cleared.",
        });
      }
    } catch (error) {
      say({ error: true, text: saveFailure(error) });
    } finally {
      state.current.sending = false;
      void send();
    }
  }
  return (rating) => {
    state.current.next = { rating };
    void send();
  };
}
