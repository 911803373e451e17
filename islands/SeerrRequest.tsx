/**
 * The Request button (docs/trakt.md, "Other apps"): sends one film to the user's Seerr through
 * POST /api/me/seerr/requests and says what Seerr did (requested, approved, already there, or
 * why not). Pages show it only when the user has saved a Seerr.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../lib/web/api.ts";

const DONE: Record<string, string> = {
  pending: "Requested: waiting for approval in Seerr.",
  approved: "Requested and approved in Seerr.",
  declined: "Seerr declined the request.",
  requested: "Requested in Seerr.",
};

/** `catalogId`: the film (its TMDB id); `title`: for the button's accessible name. */
export default function SeerrRequest({ catalogId, title }: { catalogId: number; title: string }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ error: boolean; text: string } | null>(null);
  const done = said !== null && !said.error;
  return (
    <span class="seerr-request">
      <button
        type="button"
        class="button button-secondary button-small"
        aria-label={`Request ${title} in Seerr`}
        aria-disabled={busy || done ? "true" : undefined}
        onClick={async () => {
          if (busy || done) return;
          setBusy(true);
          try {
            const { data } = await api<{ status: string }>("/api/me/seerr/requests", {
              method: "POST",
              auth: true,
              body: { catalogId },
            });
            setSaid({ error: false, text: DONE[data.status] ?? DONE.requested });
          } catch (error) {
            if (error instanceof ApiError && error.code === "already_requested") {
              setSaid({ error: false, text: "Already requested in Seerr." });
            } else {
              setSaid({
                error: true,
                text: error instanceof ApiError ? error.message : "That did not work. Try again.",
              });
            }
          } finally {
            setBusy(false);
          }
        }}
      >
        Request
      </button>
      {said && (
        <span class={said.error ? "hint notice-error" : "hint"} role="status">{said.text}</span>
      )}
    </span>
  );
}
