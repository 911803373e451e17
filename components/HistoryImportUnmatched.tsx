/**
 * The unmatched films of a finished history import: the first 100 come with the run, more a
 * page at a time from GET /api/import/:id/unmatched, the whole report as a CSV download. Each
 * film links to the site's search, so it can be added by hand.
 */
import { useState } from "preact/hooks";
import type { HistoryImportRun } from "../lib/library/history/import/runs.ts";
import type { UnmatchedPage } from "../lib/library/history/import/unmatched.ts";
import { api } from "../lib/web/api.ts";
import { REASONS, searchHref, uploadError } from "../lib/web/history_import_text.ts";
import { accessToken } from "../lib/web/live_session.ts";

type Film = HistoryImportRun["unmatched"][number];

/** The list, its "Show more" and the CSV download. */
export function HistoryImportUnmatched({ run }: { run: HistoryImportRun }) {
  const [films, setFilms] = useState<Film[]>(run.unmatched);
  const [cursor, setCursor] = useState<string | null>(
    run.films.unmatched > run.unmatched.length ? String(run.unmatched.length) : null,
  );
  const [message, setMessage] = useState<string | null>(null);
  const total = Math.max(run.films.unmatched, films.length);

  async function more() {
    if (cursor === null) return;
    setMessage(null);
    try {
      const path = `/api/import/${run.id}/unmatched?cursor=${cursor}`;
      const { data } = await api<UnmatchedPage>(path, { auth: true });
      setFilms([...films, ...data.unmatched]);
      setCursor(data.nextCursor);
    } catch (e) {
      setMessage(uploadError(e));
    }
  }

  async function download(event: Event) {
    event.preventDefault();
    setMessage(null);
    try {
      const token = await accessToken();
      if (!token) throw new Error("Your session has expired. Sign in again to download.");
      const response = await fetch(`/api/import/${run.id}/unmatched?format=csv`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`The download failed (${response.status}).`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = "not-matched.csv";
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setMessage(e instanceof Error ? e.message : "The download failed.");
    }
  }

  if (total === 0) return null;
  return (
    <>
      <h3>Not matched ({total})</h3>
      <p class="hint">
        Search for each one to add it by hand, or{" "}
        <a href={`/api/import/${run.id}/unmatched?format=csv`} onClick={download}>
          download the list (CSV)
        </a>.
      </p>
      <ul class="unmatched">
        {films.map((film, i) => (
          <li key={i}>
            <a href={searchHref(film.title)}>
              <strong>{film.title || "(no title)"}</strong>
            </a>
            {film.year ? ` (${film.year})` : " (no year)"}: {REASONS[film.reason]}
          </li>
        ))}
      </ul>
      {cursor !== null
        ? (
          <p class="button-row">
            <button type="button" class="button-secondary" onClick={more}>
              Show more ({total - films.length} left)
            </button>
          </p>
        )
        : null}
      <p class="status status-error" role="status">{message}</p>
    </>
  );
}
