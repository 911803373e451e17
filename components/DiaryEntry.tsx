/**
 * One entry of /diary, edited in place: its date, stars and note change through PATCH
 * /api/diary/:id, and it can be removed (the movie stays watched). Without JavaScript the
 * server's rendering shows the entry as it is.
 */
import { useState } from "preact/hooks";
import { StarRating } from "./StarRating.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { formatDate, ratingText } from "../lib/web/entry_format.ts";

/** An entry as GET /api/diary gives it (the fields the page uses). */
export interface DiaryItem {
  id: string;
  catalogId: number;
  title: string;
  year: number;
  watchedOn: string;
  rating: number | null;
  rewatch: boolean;
  note: string | null;
  /** Who logged it (GET /api/diary's `source`); the user's own viewings carry no label. */
  source?: string;
  /** `note` is the page's preview of a longer note, read whole before it can be edited. */
  noteCut?: true;
}

// The words for a viewing another path logged, so the diary says where each one came from.
const SOURCE_LABELS: Record<string, string> = {
  import: "imported",
  webhook: "from a media server",
  scrobble: "scrobbled",
  checkin: "checked in",
};

/** The entry's line, an Edit button, and the form it opens. */
export function DiaryEntry(props: DiaryItem) {
  const [entry, setEntry] = useState(props);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(props);
  const [status, setStatus] = useState("");
  const [gone, setGone] = useState(false);
  const name = entry.title || `Movie ${entry.catalogId}`;
  async function save(event: Event) {
    event.preventDefault();
    setStatus("Saving…");
    try {
      const { data } = await api<{ entry: DiaryItem }>(`/api/diary/${entry.id}`, {
        method: "PATCH",
        body: {
          watchedOn: draft.watchedOn,
          rating: draft.rating,
          note: draft.note?.trim() || null,
        },
        auth: true,
      });
      setEntry(data.entry);
      setEditing(false);
      setStatus("Saved.");
    } catch (error) {
      setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
    }
  }
  async function remove() {
    try {
      await api(`/api/diary/${entry.id}`, { method: "DELETE", auth: true });
      setGone(true);
      setStatus(`Removed this viewing of “${name}”.`);
    } catch (error) {
      setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
    }
  }
  // The form edits the whole note: a preview is replaced by the stored note first (never
  // saved cut), and the form stays closed if it cannot be read.
  async function toggle() {
    if (editing) return setEditing(false);
    let whole = entry;
    if (entry.noteCut) {
      setStatus("Reading the note…");
      try {
        const { data } = await api<{ entry: DiaryItem }>(`/api/diary/${entry.id}`, {
          auth: true,
        });
        whole = data.entry;
        setEntry(whole);
        setStatus("");
      } catch (error) {
        setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
        return;
      }
    }
    setDraft(whole);
    setEditing(true);
  }
  if (gone) return <p role="status">{status}</p>;
  return (
    <div class="diary-entry">
      <span class="diary-day">{formatDate(entry.watchedOn)}</span>
      {/* The year is held to the title's last word: it never starts a line of its own. */}
      <span class="diary-film">
        <a href={`/movies/${entry.catalogId}`}>{name}</a>
        {entry.year ? <span class="muted">&nbsp;({entry.year})</span> : null}
      </span>
      <span class="diary-meta">
        {entry.rewatch ? <span class="rewatch" title="Rewatch">↻ rewatch</span> : null}
        {entry.source && SOURCE_LABELS[entry.source]
          ? <span class="muted">{SOURCE_LABELS[entry.source]}</span>
          : null}
        <span class="diary-rating">{entry.rating === null ? "" : ratingText(entry.rating)}</span>
      </span>
      {entry.note ? <p class="diary-note">{entry.note}</p> : null}
      <button
        type="button"
        class="button button-secondary"
        aria-expanded={editing}
        onClick={toggle}
      >
        Edit<span class="sr-only">{` ${name}, ${entry.watchedOn}`}</span>
      </button>
      {editing
        ? (
          <form class="diary-edit" onSubmit={save}>
            <label>
              Watched on{" "}
              <input
                type="date"
                value={draft.watchedOn}
                required
                onInput={(e) =>
                  setDraft({ ...draft, watchedOn: (e.target as HTMLInputElement).value })}
              />
            </label>
            <StarRating
              value={draft.rating}
              onChange={(rating) => setDraft({ ...draft, rating })}
              label={`Rating of ${name}`}
            />
            <label>
              Note{" "}
              <textarea
                maxLength={2000}
                value={draft.note ?? ""}
                onInput={(e) =>
                  setDraft({ ...draft, note: (e.target as HTMLTextAreaElement).value })}
              />
            </label>
            <button type="submit" class="button">Save</button>
            <button type="button" class="button button-secondary" onClick={remove}>
              Remove viewing
            </button>
          </form>
        )
        : null}
      <span role="status">{status}</span>
    </div>
  );
}
