/**
 * The recommendations page: get, refresh or get new recommendations from /api/recommend,
 * the daily quota from /api/recommend/quota, and each movie's card from /api/movies/:id.
 * When a regeneration failed, the earlier set is shown with what went wrong.
 */
import { useEffect, useState } from "preact/hooks";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { MovieGrid } from "../components/MovieGrid.tsx";
import type { MovieDetail } from "../lib/catalog/types.ts";
import type { RecommendResult } from "../lib/recommend/types.ts";
import { api, ApiError } from "../lib/web/api.ts";

type Mode = "default" | "refresh" | "getNew";
interface Quota {
  limit: number;
  remaining: number;
  resetAt: string;
}
type Details = Record<number, MovieDetail | "missing">;

const QUERY: Record<Mode, string> = {
  default: "",
  refresh: "?refresh=true",
  getNew: "?getNew=true",
};
const DETAIL_CONCURRENCY = 4;

function time(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? "midnight UTC"
    : date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** What to tell the user about a failed request, by the problem's status and code. */
export function explain(error: unknown, quota: Quota | null): string {
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  if (
    error.code === "no_watched_movies" || (error.status === 400 && /watched/i.test(error.message))
  ) {
    return "Mark a few movies as watched first: recommendations are based on what you've seen.";
  }
  if (error.status === 429) {
    return `You've used all ${quota?.limit ?? 20} recommendation requests for today. ` +
      `More are available after ${quota ? time(quota.resetAt) : "midnight UTC"}.`;
  }
  if (error.status === 503) {
    return "The recommendation service is unavailable right now. Please try again in a few minutes.";
  }
  if (error.status === 409) {
    return "Your recommendations are already being prepared. Try again shortly.";
  }
  if (error.status === 502) {
    return "We couldn't come up with good recommendations this time. Please try again.";
  }
  if (error.status === 401) return "Your session has expired. Sign in again.";
  return error.message;
}

/** Fetches the details of `ids`, a few at a time, into `setDetails` as they arrive. */
async function loadDetails(
  ids: number[],
  setDetails: (fn: (d: Details) => Details) => void,
): Promise<void> {
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const current = id;
      try {
        const { data } = await api<MovieDetail>(`/api/movies/${current}`);
        setDetails((d) => ({ ...d, [current]: data }));
      } catch {
        setDetails((d) => ({ ...d, [current]: "missing" }));
      }
    }
  };
  await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, worker));
}

/** Controls, quota, messages and the grid. */
export default function Recommendations() {
  const [quota, setQuota] = useState<Quota | null>(null);
  const [result, setResult] = useState<RecommendResult | null>(null);
  const [details, setDetails] = useState<Details>({});
  const [busy, setBusy] = useState<Mode | null>(null);
  const [error, setError] = useState<string | null>(null);

  const readQuota = () =>
    api<Quota>("/api/recommend/quota", { auth: true }).then(({ data }) => setQuota(data)).catch(
      () => {/* the quota line just stays hidden */},
    );
  useEffect(() => {
    readQuota();
  }, []);

  async function ask(mode: Mode) {
    if (busy !== null) return;
    setBusy(mode);
    setError(null);
    try {
      const { data } = await api<RecommendResult>(`/api/recommend${QUERY[mode]}`, { auth: true });
      setResult(data);
      const ids = data.stale ? data.staleRecommendations ?? [] : data.recommendations;
      loadDetails(ids.filter((id) => !details[id]), setDetails);
    } catch (e) {
      setError(explain(e, quota));
    } finally {
      setBusy(null);
      readQuota();
    }
  }

  const ids = result
    ? (result.stale ? result.staleRecommendations ?? [] : result.recommendations)
    : [];
  const label = (mode: Mode, text: string) => (busy === mode ? "Working…" : text);
  return (
    <div class="recommendations">
      <div class="toolbar">
        <div class="button-row">
          {
            /* One first button whose label follows the state, never disabled: the element
               (and keyboard focus on it) survives the first answer and every request. */
          }
          <button
            type="button"
            class="button"
            aria-disabled={busy !== null ? "true" : undefined}
            onClick={() => ask(result ? "refresh" : "default")}
          >
            {result ? label("refresh", "Refresh") : label("default", "Get recommendations")}
          </button>
          {result
            ? (
              <button
                type="button"
                class="button button-secondary"
                aria-disabled={busy !== null ? "true" : undefined}
                onClick={() => ask("getNew")}
              >
                {label("getNew", "Get new ones")}
              </button>
            )
            : null}
        </div>
        <p class="quota" aria-live="polite">
          {quota ? `${quota.remaining} of ${quota.limit} requests left today` : ""}
        </p>
      </div>
      <p class="status" role="status">
        {busy ? "Finding movies you'll like… this can take up to a minute." : ""}
      </p>
      {error ? <div class="notice notice-error" role="alert">{error}</div> : null}
      {result?.stale && result.regenerationError
        ? (
          <div class="notice notice-error" role="alert">
            <p>
              <strong>New recommendations couldn't be made:</strong>{" "}
              {result.regenerationError.message}
              {result.regenerationError.retryable ? " Please try again later." : ""}
            </p>
            <p>Here are your previous recommendations.</p>
          </div>
        )
        : null}
      {result && !ids.length
        ? <p class="notice notice-note">No recommendations this time.</p>
        : null}
      {ids.length
        ? (
          <MovieGrid label={result?.stale ? "Previous recommendations" : "Recommendations"}>
            {ids.map((id) => {
              const detail = details[id];
              const movie = detail && detail !== "missing" ? detail : undefined;
              return (
                <MovieCard
                  key={id}
                  id={id}
                  title={movie?.title ?? (detail === "missing" ? "" : "Loading…")}
                  posterUrl={movie?.poster ?? ""}
                  facts={movie ? cardFacts(movie.year, movie.genres, movie.rating) : undefined}
                />
              );
            })}
          </MovieGrid>
        )
        : null}
    </div>
  );
}
