/**
 * The search page's box and results, searching as you type (after a pause, from 2
 * characters) through GET /api/movies/search; the URL follows, so reload and back work.
 * Without JavaScript it is the plain form and the server's results.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Notice } from "../components/Notice.tsx";
import { SearchForm } from "../components/SearchForm.tsx";
import { SearchResults } from "../components/SearchResults.tsx";
import type { SearchRow } from "../lib/catalog/types.ts";
import { api, ApiError } from "../lib/web/api.ts";

/** What the server searched (and found), and the image root for posters. */
export interface LiveSearchProps {
  q: string;
  rows?: SearchRow[];
  /** The server's search failed with this message. */
  failure?: string;
  imageBaseUrl: string;
}

// Long enough not to search on every keystroke: search shares the 40-per-second window.
const PAUSE_MS = 400;

/** Heading, form, status and results. */
export default function LiveSearch(props: LiveSearchProps) {
  const [query, setQuery] = useState(props.q);
  const [shown, setShown] = useState({ q: props.q, rows: props.rows });
  const [failure, setFailure] = useState(props.failure);
  const [pending, setPending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);

  useEffect(() => () => clearTimeout(timer.current), []);

  function onInput(value: string) {
    setQuery(value);
    clearTimeout(timer.current);
    const q = value.trim();
    if (q.length < 2 || q === shown.q) return;
    timer.current = setTimeout(async () => {
      const id = ++latest.current;
      setPending(true);
      try {
        const { data } = await api<{ results: SearchRow[] }>(
          `/api/movies/search?q=${encodeURIComponent(q)}`,
        );
        if (id !== latest.current) return;
        setShown({ q, rows: data.results });
        setFailure(undefined);
        history.replaceState(null, "", `/search?q=${encodeURIComponent(q)}`);
        document.title = `“${q}” · Search · Movies`;
      } catch (error) {
        if (id !== latest.current) return;
        setFailure(
          error instanceof ApiError && error.status === 429
            ? "Lots of people are searching right now. Please try again in a moment."
            : error instanceof ApiError
            ? error.message
            : "Search failed. Please try again.",
        );
      } finally {
        if (id === latest.current) setPending(false);
      }
    }, PAUSE_MS);
  }

  return (
    <>
      <h1>{shown.q ? <>Results for “{shown.q}”</> : "Search movies"}</h1>
      <SearchForm q={query} autofocus={!props.q} onInput={onInput} />
      <p class="status" role="status">{pending ? "Searching…" : ""}</p>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      <SearchResults q={shown.q} rows={shown.rows} imageBaseUrl={props.imageBaseUrl} />
    </>
  );
}
