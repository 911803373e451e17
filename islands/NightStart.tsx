/**
 * "Movie night" on the home page: starts a night, hands its join link on (the share sheet
 * where there is one, else the clipboard) and opens the night (docs/nights.md, "The page").
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../lib/web/api.ts";
import { shareLink } from "../lib/web/share_link.ts";

interface Created {
  id: string;
  joinUrl: string;
}

export default function NightStart() {
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  async function start() {
    if (busy) return;
    setBusy(true);
    setStatus("Starting a movie night…");
    try {
      const { data } = await api<Created>("/api/nights", { method: "POST", body: {}, auth: true });
      setStatus(await shareLink(data.joinUrl));
      // The creator's page holds the link too ("Invite people"), and opening it is a member's join.
      location.href = new URL(data.joinUrl).pathname + new URL(data.joinUrl).search;
    } catch (error) {
      setStatus(error instanceof ApiError ? error.message : "Something went wrong.");
      setBusy(false);
    }
  }
  return (
    <section class="night-start" aria-labelledby="night-start-heading">
      <h2 id="night-start-heading">Movie night</h2>
      <p>Pick a film together: a shortlist nobody has seen, and a vote on everyone's phone.</p>
      <button
        type="button"
        class="button"
        aria-disabled={busy ? "true" : undefined}
        onClick={start}
      >
        Start a movie night
      </button>
      <p role="status">{status}</p>
    </section>
  );
}
