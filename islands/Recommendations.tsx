/**
 * The recommendations page: the stored set the server rendered (with reasons, free to read),
 * get/refresh/get new through /api/recommend, and each card's quick actions (watched, My
 * List, not interested). After a generation the set is re-read from /api/recommend/current.
 * When a regeneration failed, the earlier set stays with what went wrong and what it cost.
 */
import { useEffect, useState } from "preact/hooks";
import { MovieGrid } from "../components/MovieGrid.tsx";
import { type PickAction, RecommendationCard } from "../components/RecommendationCard.tsx";
import { SetDates } from "../components/SetDates.tsx";
import type { RecommendResult } from "../lib/recommend/types.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { explain, explainStatus, type QuotaView } from "../lib/web/recommend_text.ts";
import { loadDetails, type Pick, readSet, type SetView } from "../lib/web/recommend_picks.ts";

export { explain } from "../lib/web/recommend_text.ts";

/** What the server read: the stored set (null when none) and the quota. */
export interface RecommendationsProps {
  set: SetView | null;
  quota: QuotaView | null;
}

type Mode = "default" | "refresh" | "getNew";
type Message = { text: string; error: boolean; undo?: Pick } | null;

const QUERY: Record<Mode, string> = {
  default: "",
  refresh: "?refresh=true",
  getNew: "?getNew=true",
};

/** Controls, quota, messages, the set's dates and the grid. */
export default function Recommendations(props: RecommendationsProps) {
  const [quota, setQuota] = useState(props.quota);
  const [set, setSet] = useState(props.set);
  const [busy, setBusy] = useState<Mode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [cardBusy, setCardBusy] = useState<number | null>(null);

  const readQuota = () =>
    api<QuotaView>("/api/recommend/quota", { auth: true }).then(({ data }) => setQuota(data))
      .catch(() => {/* the quota line keeps its last value */});
  const update = (id: number, fields: Partial<Pick>) =>
    setSet((s) =>
      s && { ...s, picks: s.picks.map((p) => (p.catalogId === id ? { ...p, ...fields } : p)) }
    );
  useEffect(() => {
    // Picks the store had no row for when the server rendered are fetched here.
    if (set) loadDetails(set.picks, update);
  }, []);
  const drop = (id: number) =>
    setSet((s) => s && { ...s, picks: s.picks.filter((p) => p.catalogId !== id) });

  async function ask(mode: Mode) {
    if (busy !== null) return;
    setBusy(mode);
    setError(null);
    setMessage(null);
    try {
      const { data } = await api<RecommendResult>(`/api/recommend${QUERY[mode]}`, { auth: true });
      if (data.stale && data.regenerationError) {
        const { status, code } = data.regenerationError;
        setError(`New recommendations couldn't be made. ${explainStatus(status, code, quota)}`);
      }
      const next = await readSet(set?.picks ?? []);
      setSet(next);
      loadDetails(next.picks, update);
    } catch (e) {
      setError(explain(e, quota));
    } finally {
      setBusy(null);
      readQuota();
    }
  }

  async function act(pick: Pick, action: PickAction) {
    const name = pick.title ? `“${pick.title}”` : "This movie";
    setCardBusy(pick.catalogId);
    setMessage(null);
    const body = { catalogId: pick.catalogId };
    try {
      if (action === "watched") {
        await api("/api/watched", { method: "POST", body, auth: true });
        drop(pick.catalogId);
        setMessage({ text: `Marked ${name} as watched.`, error: false });
      } else if (action === "dismiss") {
        await api("/api/recommend/dismissed", { method: "POST", body, auth: true });
        drop(pick.catalogId);
        setMessage({ text: `${name} won't be recommended again.`, error: false, undo: pick });
      } else {
        const add = !pick.inMyList;
        await api("/api/mylist", { method: add ? "POST" : "DELETE", body, auth: true });
        update(pick.catalogId, { inMyList: add });
        setMessage({
          text: add ? `Added ${name} to My List.` : `Removed ${name} from My List.`,
          error: false,
        });
      }
    } catch (e) {
      setMessage({ text: actionFailure(e, name), error: true });
    } finally {
      setCardBusy(null);
    }
  }

  async function undo(pick: Pick) {
    const name = pick.title ? `“${pick.title}”` : "This movie";
    try {
      await api("/api/recommend/dismissed", {
        method: "DELETE",
        body: { catalogId: pick.catalogId },
        auth: true,
      });
      setMessage({ text: `${name} may be recommended again.`, error: false });
    } catch (e) {
      setMessage({ text: actionFailure(e, name), error: true });
    }
  }

  const picks = set?.picks ?? [];
  const label = (mode: Mode, text: string) => (busy === mode ? "Working…" : text);
  const button = (mode: Mode, text: string, secondary = false) => (
    <button
      type="button"
      class={secondary ? "button button-secondary" : "button"}
      aria-disabled={busy !== null ? "true" : undefined}
      onClick={() => ask(mode)}
    >
      {label(mode, text)}
    </button>
  );
  return (
    <div class="recommendations">
      <div class="toolbar">
        <div class="button-row">
          {
            /* The first button's label follows the state but it is never disabled or replaced:
               the element (and keyboard focus on it) survives the first answer and every request. */
          }
          {set ? button("refresh", "Refresh") : button("default", "Get recommendations")}
          {set ? button("getNew", "Get new ones", true) : null}
        </div>
        <p class="quota" aria-live="polite">
          {quota ? `${quota.remaining} of ${quota.limit} requests left today` : ""}
        </p>
      </div>
      <p class="status" role="status">
        {busy ? "Finding movies you'll like… this can take up to a minute." : ""}
      </p>
      {error ? <div class="notice notice-error" role="alert">{error}</div> : null}
      {set
        ? <SetDates createdAt={set.createdAt} expiresAt={set.expiresAt} fresh={set.fresh} />
        : (
          <p class="notice notice-note">
            You have no recommendations yet. Getting them uses one of today's requests; after that
            they are kept here for a week, free to come back to.
          </p>
        )}
      <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
        {message?.text}
        {message?.undo
          ? (
            <>
              {" "}
              <button type="button" class="link-button" onClick={() => undo(message.undo!)}>
                Undo
              </button>
            </>
          )
          : null}
      </p>
      {set && !picks.length
        ? (
          <p class="notice notice-note">
            No recommendations left in this set. Get new ones when you're ready.
          </p>
        )
        : null}
      {picks.length
        ? (
          <MovieGrid label="Recommendations">
            {picks.map((pick) => (
              <RecommendationCard
                key={pick.catalogId}
                pick={pick}
                busy={cardBusy === pick.catalogId}
                onAction={act}
              />
            ))}
          </MovieGrid>
        )
        : null}
    </div>
  );
}

/** A quick action that failed, in plain words. */
function actionFailure(error: unknown, name: string): string {
  if (error instanceof ApiError && error.status === 401) {
    return "Your session has expired. Sign in again to change your lists.";
  }
  if (error instanceof ApiError && error.code === "already_watched") {
    return `You've already watched ${name}, so it can't go on My List.`;
  }
  if (error instanceof ApiError && error.code === "too_many_dismissed") {
    return "You've marked 5,000 movies as not interested, the most there can be. " +
      "Undo a few first.";
  }
  return `Couldn't save that for ${name}. Please try again.`;
}
