/**
 * The movie page's "Watched" and "My List" buttons: they show the signed-in user's current
 * state (rendered by the server; re-read from /api/watched and /api/mylist after a
 * back/forward-cache restore) and change it through the API. Marking a movie watched takes it
 * off My List, as the API does, and dates it today (the browser's day); a watched movie gets
 * the rating, date and note form. The buttons are never disabled while saving, so keyboard
 * focus stays on them; My List is shown unavailable, with the reason, on a watched movie.
 */
import { useEffect, useState } from "preact/hooks";
import { EntryForm } from "../components/EntryForm.tsx";
import type { MovieCard } from "../lib/catalog/cards.ts";
import type { WatchedEntry } from "../lib/library/entries/entry.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { localToday } from "../lib/web/entry_format.ts";

/** The movie, and the signed-in user's state the server knew (the page renders a sign-in link instead when signed out). */
interface ListButtonsProps {
  catalogId: number;
  title: string;
  watched?: boolean;
  inMyList?: boolean;
  /** The watched entry (rating, date, note) when the movie is watched. */
  entry?: WatchedEntry;
  /** The sign-in URL that comes back to this page. */
  loginHref: string;
}

type Busy = "watched" | "mylist" | null;
type Message = { kind: "ok" | "error"; text: string; signIn?: boolean } | null;

/** Two toggle buttons (aria-pressed) and a status line. */
export default function ListButtons(props: ListButtonsProps) {
  const { catalogId, title, loginHref } = props;
  const [watched, setWatched] = useState(Boolean(props.watched));
  const [inMyList, setInMyList] = useState(Boolean(props.inMyList));
  const [entry, setEntry] = useState(props.entry);
  const [busy, setBusy] = useState<Busy>(null);
  const [message, setMessage] = useState<Message>(null);

  useEffect(() => {
    // A fresh load has the state the server just read (signed-in pages are no-store), so the
    // lists are re-read only when the page comes back from the back/forward cache.
    const has = (movies: MovieCard[]) => movies.some((m) => m.catalogId === catalogId);
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      Promise.all([
        api<{ movies: MovieCard[] }>("/api/watched", { auth: true }),
        api<{ movies: MovieCard[] }>("/api/mylist", { auth: true }),
      ]).then(async ([w, m]) => {
        const isWatched = has(w.data.movies);
        setWatched(isWatched);
        setInMyList(has(m.data.movies));
        setEntry(isWatched ? await fetchEntry(catalogId) : undefined);
      }).catch(() => {/* keep the state shown */});
    };
    addEventListener("pageshow", onPageShow);
    return () => removeEventListener("pageshow", onPageShow);
  }, [catalogId]);

  const name = title || "this movie";
  async function change(list: "watched" | "mylist", add: boolean) {
    if (busy !== null) return;
    setBusy(list);
    setMessage(null);
    try {
      await api(`/api/${list}`, {
        method: add ? "POST" : "DELETE",
        body: list === "watched" && add ? { catalogId, watchedOn: localToday() } : { catalogId },
        auth: true,
      });
      if (list === "watched") {
        setEntry(add ? await fetchEntry(catalogId) : undefined);
        setWatched(add);
        if (add && inMyList) setInMyList(false);
        setMessage({
          kind: "ok",
          text: add
            ? `Marked “${name}” as watched${inMyList ? " and took it off My List" : ""}.`
            : `Removed “${name}” from Watched.`,
        });
      } else {
        setInMyList(add);
        setMessage({
          kind: "ok",
          text: add ? `Added “${name}” to My List.` : `Removed “${name}” from My List.`,
        });
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === "already_watched") {
        setWatched(true);
        setInMyList(false);
        setEntry(await fetchEntry(catalogId));
        setMessage({
          kind: "error",
          text: `You've already watched “${name}”, so it can't go on My List.`,
        });
      } else if (error instanceof ApiError && error.status === 401) {
        setMessage({ kind: "error", text: "Your session has expired.", signIn: true });
      } else {
        setMessage({
          kind: "error",
          text: error instanceof ApiError ? error.message : "Something went wrong.",
        });
      }
    } finally {
      setBusy(null);
    }
  }

  // A watched movie cannot go on My List (409 already_watched): say so before the click.
  const myListBlocked = watched && !inMyList;
  return (
    <div class="list-buttons">
      <div class="button-row">
        <button
          type="button"
          class={watched ? "button button-on" : "button"}
          aria-pressed={watched}
          aria-disabled={busy !== null ? "true" : undefined}
          onClick={() => change("watched", !watched)}
        >
          {busy === "watched" ? "Saving…" : watched ? "✓ Watched" : "Mark as watched"}
        </button>
        <button
          type="button"
          class={inMyList ? "button button-on" : "button button-secondary"}
          aria-pressed={inMyList}
          aria-disabled={busy !== null || myListBlocked ? "true" : undefined}
          aria-describedby={myListBlocked ? "mylist-reason" : undefined}
          onClick={() => myListBlocked || change("mylist", !inMyList)}
        >
          {busy === "mylist" ? "Saving…" : inMyList ? "✓ In My List" : "Add to My List"}
        </button>
      </div>
      {myListBlocked
        ? (
          <p id="mylist-reason" class="hint">
            You've watched this movie, so it can't go on My List.
          </p>
        )
        : null}
      <p class={`status ${message?.kind === "error" ? "status-error" : ""}`} role="status">
        {message?.text}
        {message?.signIn
          ? (
            <>
              {" "}
              <a href={loginHref}>Sign in again</a>.
            </>
          )
          : null}
      </p>
      {watched && entry ? <EntryForm key={entry.addedAt} entry={entry} onSaved={setEntry} /> : null}
    </div>
  );
}

/** The stored entry of a watched movie (undefined if it is gone meanwhile). */
async function fetchEntry(catalogId: number): Promise<WatchedEntry | undefined> {
  try {
    return (await api<{ entry: WatchedEntry }>(`/api/watched/${catalogId}`, { auth: true })).data
      .entry;
  } catch {
    return undefined;
  }
}
