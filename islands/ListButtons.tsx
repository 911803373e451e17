/**
 * The movie page's "Watched" and "My List" buttons: they show the signed-in user's current
 * state (rendered by the server; re-read from /api/watched and /api/mylist after a
 * back/forward-cache restore) and change it through the API. Marking a movie watched takes it off My List, as the API does.
 */
import { useEffect, useState } from "preact/hooks";
import type { MovieCard } from "../lib/lists/cards.ts";
import { api, ApiError } from "../lib/web/api.ts";

/** The movie, and the signed-in user's state the server knew (the page renders a sign-in link instead when signed out). */
export interface ListButtonsProps {
  catalogId: number;
  title: string;
  watched?: boolean;
  inMyList?: boolean;
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
      ]).then(([w, m]) => {
        setWatched(has(w.data.movies));
        setInMyList(has(m.data.movies));
      }).catch(() => {/* keep the state shown */});
    };
    addEventListener("pageshow", onPageShow);
    return () => removeEventListener("pageshow", onPageShow);
  }, [catalogId]);

  const name = title || "this movie";
  async function change(list: "watched" | "mylist", add: boolean) {
    setBusy(list);
    setMessage(null);
    try {
      await api(`/api/${list}`, {
        method: add ? "POST" : "DELETE",
        body: { catalogId },
        auth: true,
      });
      if (list === "watched") {
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

  return (
    <div class="list-buttons">
      <div class="button-row">
        <button
          type="button"
          class={watched ? "button button-on" : "button"}
          aria-pressed={watched}
          disabled={busy !== null}
          onClick={() => change("watched", !watched)}
        >
          {busy === "watched" ? "Saving…" : watched ? "✓ Watched" : "Mark as watched"}
        </button>
        <button
          type="button"
          class={inMyList ? "button button-on" : "button button-secondary"}
          aria-pressed={inMyList}
          disabled={busy !== null}
          onClick={() => change("mylist", !inMyList)}
        >
          {busy === "mylist" ? "Saving…" : inMyList ? "✓ In My List" : "Add to My List"}
        </button>
      </div>
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
    </div>
  );
}
