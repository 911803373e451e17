/**
 * The recommendation cards' quick actions through the API, and what each says at the card:
 * Mark watched and Not interested take the card out of the set (Undo puts it back), My List
 * toggles. Undo of "Mark watched" deletes the watched entry it made and puts the movie back on
 * My List if it was there (marking watched takes it off, as the API does).
 */
import { api, ApiError } from "./api.ts";
import type { Pick } from "./recommend_picks.ts";

/** A card's quick actions. */
export type PickAction = "watched" | "mylist" | "dismiss";

/** What a card says after an action; `gone` when the card left the set (Undo offered). */
export interface CardNote {
  text: string;
  error: boolean;
  gone?: boolean;
}

const nameOf = (pick: Pick) => (pick.title ? `“${pick.title}”` : "This movie");

/** Runs `action` on `pick`; the card's note, and My List's new state when it changed. */
export async function runPickAction(pick: Pick, action: PickAction): Promise<CardNote> {
  const body = { catalogId: pick.catalogId };
  const name = nameOf(pick);
  try {
    if (action === "watched") {
      await api("/api/watched", { method: "POST", body, auth: true });
      return { text: `Marked ${name} as watched.`, error: false, gone: true };
    }
    if (action === "dismiss") {
      await api("/api/recommend/dismissed", { method: "POST", body, auth: true });
      return { text: `${name} won't be recommended again.`, error: false, gone: true };
    }
    const add = !pick.inMyList;
    await api("/api/mylist", { method: add ? "POST" : "DELETE", body, auth: true });
    return {
      text: add ? `Added ${name} to My List.` : `Removed ${name} from My List.`,
      error: false,
    };
  } catch (e) {
    return { text: actionFailure(e, name), error: true };
  }
}

/** Undoes `action` (watched or dismiss) on `pick`; null when it worked, else the note to show. */
export async function undoPickAction(pick: Pick, action: PickAction): Promise<CardNote | null> {
  const body = { catalogId: pick.catalogId };
  try {
    if (action === "dismiss") {
      await api("/api/recommend/dismissed", { method: "DELETE", body, auth: true });
    } else {
      await api("/api/watched", { method: "DELETE", body, auth: true });
      if (pick.inMyList) await api("/api/mylist", { method: "POST", body, auth: true });
    }
    return null;
  } catch (e) {
    return { text: actionFailure(e, nameOf(pick)), error: true, gone: true };
  }
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
