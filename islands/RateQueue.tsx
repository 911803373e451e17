/**
 * "Rate what you watched" on the signed-in home page: the latest watched movies without a
 * rating, each with inline stars that save on tap (or on each key of the star slider). A
 * rating goes to the movie's latest viewing, or to its watched entry when none is logged.
 */
import { useState } from "preact/hooks";
import { StarRating } from "../components/StarRating.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { formatDate, ratingText } from "../lib/web/entry_format.ts";

/** A movie of the queue, as GET /api/diary/unrated gives it. */
interface QueueMovie {
  catalogId: number;
  title: string;
  year: number;
  watchedOn: string | null;
  viewingId: string | null;
}

function QueueItem({ movie }: { movie: QueueMovie }) {
  const [rating, setRating] = useState<number | null>(null);
  const [status, setStatus] = useState("");
  const name = movie.title || `Movie ${movie.catalogId}`;
  async function save(value: number | null) {
    setRating(value);
    setStatus("Saving…");
    const path = movie.viewingId
      ? `/api/diary/${movie.viewingId}`
      : `/api/watched/${movie.catalogId}`;
    try {
      await api(path, { method: "PATCH", body: { rating: value }, auth: true });
      setStatus(value === null ? "Rating cleared." : `Saved: ${ratingText(value)}.`);
    } catch (error) {
      setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
    }
  }
  return (
    <li class="queue-item">
      <a href={`/movies/${movie.catalogId}`}>{name}</a>
      {movie.year ? <span class="muted">({movie.year})</span> : null}
      {movie.watchedOn ? <span class="muted">watched {formatDate(movie.watchedOn)}</span> : null}
      <StarRating value={rating} onChange={save} label={`Your rating of ${name}`} />
      <span class="queue-status" role="status">{status}</span>
    </li>
  );
}

/** The queue; the server renders it only when it has movies. */
export default function RateQueue({ movies }: { movies: QueueMovie[] }) {
  return (
    <ul class="rate-queue">
      {movies.map((m) => <QueueItem key={m.catalogId} movie={m} />)}
    </ul>
  );
}
