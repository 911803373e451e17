/**
 * Download links of GET /api/export: the API takes the session's bearer token, which a plain
 * link cannot send, so each link fetches the file and hands it to the browser as a download.
 */
import { useState } from "preact/hooks";
import { accessToken } from "../lib/web/live_session.ts";

const FILES = [
  { query: "", name: "movies-export.json", label: "Everything (JSON)" },
  { query: "?format=csv&list=watched", name: "watched.csv", label: "Watched (Letterboxd CSV)" },
  { query: "?format=csv&list=mylist", name: "mylist.csv", label: "My List (Letterboxd CSV)" },
];

/** The three export downloads. */
export default function ExportLinks() {
  const [message, setMessage] = useState<string | null>(null);

  async function download(event: Event, file: (typeof FILES)[number]) {
    event.preventDefault();
    setMessage(null);
    try {
      const token = await accessToken();
      if (!token) throw new Error("Your session has expired. Sign in again to export.");
      const response = await fetch(`/api/export${file.query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`The export failed (${response.status}).`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = file.name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setMessage(e instanceof Error ? e.message : "The export failed.");
    }
  }

  return (
    <div>
      <p class="button-row">
        {FILES.map((file) => (
          <a
            key={file.name}
            class="button button-secondary"
            href={`/api/export${file.query}`}
            download={file.name}
            onClick={(e) => download(e, file)}
          >
            {file.label}
          </a>
        ))}
      </p>
      <p class="status status-error" role="status">{message}</p>
    </div>
  );
}
