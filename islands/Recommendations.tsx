/**
 * The recommendations page: the stored set the server rendered (with reasons, free to read),
 * get/refresh/get new through /api/recommend, and each card's quick actions (watched, My
 * List, not interested). After a generation the set is re-read from /api/recommend/current.
 * When a regeneration failed, the earlier set stays with what went wrong and what it cost.
 */
import { useEffect, useState } from "preact/hooks";
import { MovieGrid } from "../components/MovieGrid.tsx";
import { RecommendationCard } from "../components/RecommendationCard.tsx";
import AddToList from "./AddToList.tsx";
import SeerrRequest from "./SeerrRequest.tsx";
import { LocalTime } from "../components/LocalTime.tsx";
import { SetDates } from "../components/SetDates.tsx";
import type { RecommendResult } from "../lib/recommend/types.ts";
import { api, ApiError } from "../lib/web/api.ts";
import {
  type CardNote,
  type PickAction,
  runPickAction,
  undoPickAction,
} from "../lib/web/pick_actions.ts";
import { explain, explainStatus, type QuotaView } from "../lib/web/recommend_text.ts";
import { loadDetails, type Pick, readSet, type SetView } from "../lib/web/recommend_picks.ts";
import { useFocusAfterRender } from "../lib/web/use_focus.ts";

export { explain } from "../lib/web/recommend_text.ts";

/** What the server read: the stored set (null when none) and the quota. */
export interface RecommendationsProps {
  set: SetView | null;
  quota: QuotaView | null;
  /** The user has saved a Seerr: each card gets the Request button (docs/trakt.md). */
  seerr?: boolean;
}

type Mode = "default" | "refresh" | "getNew";

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
  const [notes, setNotes] = useState<Record<number, CardNote & { action: PickAction }>>({});
  const [cardBusy, setCardBusy] = useState<number | null>(null);
  const focusNext = useFocusAfterRender();

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

  async function ask(mode: Mode) {
    if (busy !== null) return;
    setBusy(mode);
    setError(null);
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
    if (cardBusy !== null) return;
    setCardBusy(pick.catalogId);
    const note = await runPickAction(pick, action);
    setCardBusy(null);
    setNotes((n) => ({ ...n, [pick.catalogId]: { ...note, action } }));
    if (!note.error && action === "mylist") update(pick.catalogId, { inMyList: !pick.inMyList });
    // The card that left keeps its place with Undo, and focus goes there; otherwise focus stays.
    if (note.gone) focusNext(`[data-undo="${pick.catalogId}"]`);
  }

  // 👍 (or taking it back): more like this in the next set, from the AI and the local picks.
  async function thumb(pick: Pick) {
    if (cardBusy !== null) return;
    const undo = pick.thumb === 1;
    setCardBusy(pick.catalogId);
    let note: CardNote;
    try {
      await api("/api/recommend/feedback", {
        method: undo ? "DELETE" : "POST",
        auth: true,
        body: undo ? { catalogId: pick.catalogId } : { catalogId: pick.catalogId, value: 1 },
      });
      update(pick.catalogId, { thumb: undo ? 0 : 1 });
      note = { text: undo ? "Thumbs up taken back." : "Noted: more like this.", error: false };
    } catch (e) {
      note = { text: e instanceof ApiError ? e.message : "That could not be saved.", error: true };
    }
    setCardBusy(null);
    // Kept as My List's is: a note that never takes the card away (no Undo).
    setNotes((n) => ({ ...n, [pick.catalogId]: { ...note, action: "mylist" } }));
  }

  async function undo(pick: Pick) {
    const done = notes[pick.catalogId];
    if (!done?.gone || cardBusy !== null) return;
    setCardBusy(pick.catalogId);
    const failed = await undoPickAction(pick, done.action);
    setCardBusy(null);
    const name = pick.title ? `“${pick.title}”` : "This movie";
    const text = done.action === "dismiss"
      ? `${name} may be recommended again.`
      : `${name} is no longer marked as watched.`;
    setNotes((n) => ({
      ...n,
      [pick.catalogId]: { ...(failed ?? { text, error: false }), action: done.action },
    }));
    if (!failed) focusNext(`[data-action="${done.action}-${pick.catalogId}"]`);
  }

  const picks = set?.picks ?? [];
  const label = (mode: Mode, text: string) => (busy === mode ? "Working…" : text);
  // None left today: both buttons are shown unavailable (still focusable), the reason beside them.
  const spent = quota !== null && quota.remaining <= 0;
  const button = (mode: Mode, text: string, secondary = false) => (
    <button
      type="button"
      class={secondary ? "button button-secondary" : "button"}
      aria-disabled={busy !== null || spent ? "true" : undefined}
      aria-describedby="rec-quota rec-modes"
      onClick={() => spent || ask(mode)}
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
        <p class="quota" id="rec-quota" aria-live="polite">
          {quota && spent
            ? (
              <>
                No requests left today ({quota.limit} a day). More after{" "}
                <LocalTime iso={quota.resetAt} style="time" />.
              </>
            )
            : quota
            ? `${quota.remaining} of ${quota.limit} requests left today`
            : ""}
        </p>
      </div>
      <p class="hint" id="rec-modes">
        {set
          ? "Refresh makes a new set from what you've watched and rated so far; it may keep some " +
            "of these. Get new ones leaves out every movie shown here. Either uses one of " +
            "today's requests."
          : "Each request makes a set of movies picked for you and uses one of today's requests."}
      </p>
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
      {set && !picks.some((p) => !notes[p.catalogId]?.gone)
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
                note={notes[pick.catalogId]}
                onAction={act}
                onUndo={undo}
                onThumb={thumb}
              >
                <AddToList catalogId={pick.catalogId} title={pick.title} compact />
                {props.seerr
                  ? (
                    <SeerrRequest
                      catalogId={pick.catalogId}
                      title={pick.title || `movie #${pick.catalogId}`}
                    />
                  )
                  : null}
              </RecommendationCard>
            ))}
          </MovieGrid>
        )
        : null}
    </div>
  );
}
