/**
 * The search page's box and results, searching as you type (after a pause, from 2
 * characters) through GET /api/movies/search; the URL follows, so reload and back work.
 * Clearing the box, or a failed search, clears the old results and their heading. "More
 * results" is a link to the next page; with JavaScript it appends that page here instead.
 * Without JavaScript it is the plain form and the server's results.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Notice } from "../components/Notice.tsx";
import { SearchForm } from "../components/SearchForm.tsx";
import { SearchPager, SearchResults } from "../components/SearchResults.tsx";
import type { SearchRow, UnlistedRow } from "../lib/catalog/types.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { useFocusAfterRender } from "../lib/web/use_focus.ts";
import AddToList from "./AddToList.tsx";

/** What the server searched (and found), and the image root for posters. */
interface LiveSearchProps {
  q: string;
  /** The page the server rendered (1 when none). */
  page?: number;
  /** TMDB's page count for `q`, when the server searched. */
  totalPages?: number;
  rows?: SearchRow[];
  /** The films the API's `results` leave out (no poster, date or rating), shown last. */
  unlisted?: UnlistedRow[];
  /** The server's search failed with this message. */
  failure?: string;
  imageBaseUrl: string;
  /** Signed in: each card offers "Add to list". */
  signedIn?: boolean;
}

/** The results on screen: the query, the rows of pages `first` to `last`, and whether more exist. */
interface Shown {
  q: string;
  rows?: SearchRow[];
  unlisted?: UnlistedRow[];
  first: number;
  last: number;
  more: boolean;
}

/** GET /api/movies/search with include=unlisted. */
interface Found {
  results: SearchRow[];
  unlisted?: UnlistedRow[];
}

// Long enough not to search on every keystroke: search shares the 40-per-second window.
const PAUSE_MS = 400;
const MAX_PAGE = 500;

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    return "Lots of people are searching right now. Please try again in a moment.";
  }
  if (error instanceof ApiError && error.status === 0) return error.message;
  return "Search failed. Please try again in a moment.";
}

/** Heading, form, status, results and the pager. */
export default function LiveSearch(props: LiveSearchProps) {
  const page = props.page ?? 1;
  const [query, setQuery] = useState(props.q);
  const [shown, setShown] = useState<Shown>({
    q: props.q,
    rows: props.rows,
    unlisted: props.unlisted,
    first: page,
    last: page,
    more: !!props.rows && page < Math.min(props.totalPages ?? 0, MAX_PAGE),
  });
  const [failure, setFailure] = useState(props.failure);
  const [pending, setPending] = useState<"search" | "more" | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  const focusNext = useFocusAfterRender();

  useEffect(() => () => clearTimeout(timer.current), []);

  function clear(q: string) {
    setShown({ q: "", rows: undefined, first: 1, last: 1, more: false });
    if (!q) {
      history.replaceState(null, "", "/search");
      document.title = "Search · Movies";
    }
  }

  function onInput(value: string) {
    setQuery(value);
    clearTimeout(timer.current);
    const q = value.trim();
    if (q.length < 2) {
      // A search still on its way must not bring the old results back.
      latest.current++;
      setPending(null);
      setFailure(undefined);
      clear(q);
      return;
    }
    if (q === shown.q) return;
    timer.current = setTimeout(async () => {
      const id = ++latest.current;
      setPending("search");
      try {
        const { data } = await api<Found>(
          `/api/movies/search?q=${encodeURIComponent(q)}&include=unlisted`,
        );
        if (id !== latest.current) return;
        // The API gives no page count: "More results" shows while pages bring new rows.
        setShown({
          q,
          rows: data.results,
          unlisted: data.unlisted,
          first: 1,
          last: 1,
          more: data.results.length + (data.unlisted?.length ?? 0) > 0,
        });
        setFailure(undefined);
        history.replaceState(null, "", `/search?q=${encodeURIComponent(q)}`);
        document.title = `“${q}” · Search · Movies`;
      } catch (error) {
        if (id !== latest.current) return;
        clear(q);
        setFailure(failureText(error));
      } finally {
        if (id === latest.current) setPending(null);
      }
    }, PAUSE_MS);
  }

  async function more() {
    const { q, last } = shown;
    const id = ++latest.current;
    setPending("more");
    try {
      const { data } = await api<Found>(
        `/api/movies/search?q=${encodeURIComponent(q)}&page=${last + 1}&include=unlisted`,
      );
      if (id !== latest.current) return;
      const seen = new Set([...(shown.rows ?? []), ...(shown.unlisted ?? [])].map((r) => r.id));
      const added = data.results.filter((r) => !seen.has(r.id));
      const addedUnlisted = (data.unlisted ?? []).filter((r) => !seen.has(r.id));
      setShown((s) => ({
        ...s,
        rows: [...(s.rows ?? []), ...added],
        // Still after every film with a poster, date and rating.
        unlisted: [...(s.unlisted ?? []), ...addedUnlisted],
        last: last + 1,
        more: added.length + addedUnlisted.length > 0 && last + 1 < MAX_PAGE,
      }));
      // Focus goes to the first new movie (it stayed on the button, now below them), or to
      // "That's all" when the page brought nothing new (the button is gone).
      const first = added[0] ?? addedUnlisted[0];
      focusNext(first ? `a.card-link[href="/movies/${first.id}"]` : "#search-end");
      setFailure(undefined);
    } catch (error) {
      if (id !== latest.current) return;
      setFailure(failureText(error));
    } finally {
      if (id === latest.current) setPending(null);
    }
  }

  return (
    <>
      <h1>{shown.q ? <>Results for “{shown.q}”</> : "Search movies"}</h1>
      <SearchForm q={query} autofocus={!props.q} onInput={onInput} />
      <p class="status" role="status">
        {pending === "search" ? "Searching…" : pending === "more" ? "Loading more…" : ""}
      </p>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      <SearchResults
        q={shown.q}
        rows={shown.rows}
        unlisted={shown.unlisted}
        page={shown.first === shown.last ? shown.first : undefined}
        more={shown.more}
        imageBaseUrl={props.imageBaseUrl}
        actions={props.signedIn
          ? (row) => <AddToList catalogId={row.id} title={row.title} compact />
          : undefined}
      />
      {shown.rows
        ? (
          <SearchPager
            q={shown.q}
            first={shown.first}
            last={shown.last}
            more={shown.more}
            busy={pending === "more"}
            onMore={more}
          />
        )
        : null}
    </>
  );
}
