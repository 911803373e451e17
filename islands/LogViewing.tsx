/**
 * "Log a viewing" on the movie page: a date (today by default), optional stars and a note,
 * logged in the diary (POST /api/diary). Logging marks the movie watched and takes it off My
 * List; watching it again is worked out as a rewatch by the diary.
 */
import { useState } from "preact/hooks";
import { StarRating } from "../components/StarRating.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { formatDate, localToday } from "../lib/web/entry_format.ts";

/** The movie to log. */
interface LogViewingProps {
  catalogId: number;
  title: string;
}

interface Logged {
  entry: { watchedOn: string; rewatch: boolean };
}

/** A small form; the status line says what was logged. */
export default function LogViewing({ catalogId, title }: LogViewingProps) {
  const [watchedOn, setWatchedOn] = useState(localToday());
  const [rating, setRating] = useState<number | null>(null);
  const [note, setNote] = useState("");
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setStatus("Saving…");
    try {
      const { data } = await api<Logged>("/api/diary", {
        method: "POST",
        body: { catalogId, watchedOn, rating, note: note.trim() || null },
        auth: true,
      });
      const kind = data.entry.rewatch ? "a rewatch" : "a viewing";
      setStatus(`Logged ${kind} of “${title}” on ${formatDate(data.entry.watchedOn)}.`);
      setNote("");
    } catch (error) {
      setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="log-viewing" onSubmit={submit}>
      <h2>Log a viewing</h2>
      <label>
        Date of this viewing{" "}
        <input
          type="date"
          value={watchedOn}
          required
          onInput={(e) => setWatchedOn((e.target as HTMLInputElement).value)}
        />
      </label>
      <StarRating value={rating} onChange={setRating} label="Rating of this viewing" />
      <label>
        Note on this viewing{" "}
        <textarea
          maxLength={2000}
          value={note}
          onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
        Log a viewing
      </button>
      <p role="status">{status}</p>
    </form>
  );
}
