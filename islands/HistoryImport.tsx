/**
 * The import page's upload: sends the chosen file to POST /api/import, then polls
 * GET /api/import/:id so the progress bar moves while the run goes, and shows the counts and
 * the rows that did not match once it ends. A run already going when the page loads is
 * followed the same way.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { HistoryImportRun } from "../lib/library/history/import/runs.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { HistoryImportUnmatched } from "../components/HistoryImportUnmatched.tsx";
import { countLines, FORMAT_NAMES, uploadError } from "../lib/web/history_import_text.ts";
import { accessToken } from "../lib/web/live_session.ts";

/** The user's latest run when the page was rendered, if any. */
interface HistoryImportProps {
  latest: HistoryImportRun | null;
}

const POLL_MS = 700;

/** POST /api/import with the file as multipart field `file`. */
async function upload(file: File): Promise<string> {
  const token = await accessToken();
  if (!token) throw new ApiError(401, "unauthorized", "Please sign in again.");
  const form = new FormData();
  form.set("file", file);
  let response: Response;
  try {
    response = await fetch("/api/import", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      body: form,
    });
  } catch {
    throw new ApiError(0, "network_error", "The site could not be reached. Check your connection.");
  }
  const body = await response.json().catch(() => undefined);
  if (response.status !== 202) {
    throw new ApiError(response.status, body?.code ?? "", body?.detail ?? "Upload failed.");
  }
  return String(body.importId);
}

const HEADINGS: Record<HistoryImportRun["status"], string> = {
  running: "Importing…",
  succeeded: "Import finished",
  failed: "Import stopped",
  cancelled: "Import cancelled",
};

function Report({ run, onCancel }: { run: HistoryImportRun; onCancel: () => void }) {
  const percent = Math.round(run.progress * 100);
  const done = run.status !== "running";
  return (
    <section class="import-run" aria-labelledby="run-heading">
      <h2 id="run-heading">{HEADINGS[run.status]}</h2>
      <p class="lead">
        From {FORMAT_NAMES[run.format]}, started {new Date(run.startedAt).toLocaleString()}.
      </p>
      <label for="import-progress">Progress: {percent}%</label>
      <progress id="import-progress" max={1} value={run.progress} aria-valuetext={`${percent}%`}>
        {percent}%
      </progress>
      {run.status === "failed"
        ? (
          <p class="status status-error" role="alert">
            The import stopped before the end; what was read until then is kept. Upload the file
            again to finish it: rows already imported are not added twice.
          </p>
        )
        : null}
      {run.status === "cancelled"
        ? (
          <p class="status" role="status">
            You cancelled this import; what it had imported until then is kept.
          </p>
        )
        : null}
      {done ? null : (
        <p class="button-row">
          <button type="button" class="button-secondary" onClick={onCancel}>
            Cancel import
          </button>
        </p>
      )}
      <dl class="import-counts">
        {countLines(run).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {done ? <HistoryImportUnmatched key={run.id} run={run} /> : null}
      {done
        ? (
          <p class="button-row">
            <a class="button button-secondary" href="/watched?sort=watched_on">
              See Watched, by watch date
            </a>
            <a class="button button-secondary" href="/mylist">See My List</a>
          </p>
        )
        : null}
    </section>
  );
}

/** The upload form and the run it follows. */
export default function HistoryImport({ latest }: HistoryImportProps) {
  const [run, setRun] = useState<HistoryImportRun | null>(latest);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const running = run?.status === "running";

  useEffect(() => {
    if (!run || run.status !== "running") return;
    const timer = setTimeout(async () => {
      try {
        const { data } = await api<HistoryImportRun>(`/api/import/${run.id}`, { auth: true });
        setRun(data);
      } catch (e) {
        setError(uploadError(e));
        setRun({ ...run }); // poll again
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run]);

  async function cancel() {
    if (!run) return;
    try {
      const { data } = await api<HistoryImportRun>(`/api/import/${run.id}/cancel`, {
        method: "POST",
        auth: true,
      });
      setRun(data);
    } catch (e) {
      setError(uploadError(e));
    }
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (busy || running) return;
    const file = input.current?.files?.[0];
    if (!file) {
      setError("Choose an export file first.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const id = await upload(file);
      const { data } = await api<HistoryImportRun>(`/api/import/${id}`, { auth: true });
      setRun(data);
    } catch (e) {
      setError(uploadError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="import">
      <form class="form import-form" onSubmit={submit}>
        <div class="field">
          <label for="import-file">Export file</label>
          <input
            id="import-file"
            ref={input}
            type="file"
            name="file"
            accept=".zip,.csv,.json,application/zip,text/csv,application/json"
            aria-describedby="import-file-hint"
          />
          <p class="hint" id="import-file-hint">
            A ZIP, CSV or JSON file of up to 20 MiB, as the service gave it to you.
          </p>
        </div>
        <p class="button-row">
          {/* Never disabled: keyboard focus stays on it through the upload and the run. */}
          <button
            type="submit"
            class="button"
            aria-disabled={busy || running ? "true" : undefined}
          >
            {busy ? "Uploading…" : "Import"}
          </button>
        </p>
        <p class={`status ${error ? "status-error" : ""}`} role="status">{error}</p>
      </form>
      {run ? <Report run={run} onCancel={cancel} /> : null}
    </div>
  );
}
