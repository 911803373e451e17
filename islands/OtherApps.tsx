/**
 * The other apps on /account/connections (docs/trakt.md, "Other apps"): the My List feed URL
 * for Radarr's Custom Lists with Copy and a new URL on request, and the user's Seerr: its URL
 * and API key saved (the key never shown again: the form only says one is saved) or forgotten.
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

/** The Seerr settings as GET /api/me/seerr answers them. */
export interface SeerrState {
  url: string | null;
  savedAt: string | null;
}

/** `feedUrl`: the My List feed; `seerr`: the saved Seerr, if any. */
export default function OtherApps(
  { feedUrl: initialFeed, seerr: initialSeerr }: { feedUrl: string; seerr: SeerrState },
) {
  const [feedUrl, setFeedUrl] = useState(initialFeed);
  const [seerr, setSeerr] = useState(initialSeerr);
  const { busy, message, setMessage, run } = useAction();

  async function saveSeerr(form: HTMLFormElement) {
    const data = new FormData(form);
    await run(async () => {
      try {
        const { data: saved } = await api<SeerrState>("/api/me/seerr", {
          method: "PUT",
          auth: true,
          body: { url: String(data.get("url") ?? ""), apiKey: String(data.get("apiKey") ?? "") },
        });
        setSeerr(saved);
        form.reset();
        return { error: false, text: "Seerr saved. Request buttons now send films to it." };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <div class="other-apps">
      <h3 id="feed-heading">Radarr: My List as a list</h3>
      <p class="hint">
        In Radarr, add an import list of type <strong>Custom Lists</strong>{" "}
        and paste this URL as its List URL: Radarr adds what you save to My List.
      </p>
      <div class="webhook-urls">
        <label>
          My List feed URL
          <input readOnly value={feedUrl} class="token-value" />
        </label>
        <button
          type="button"
          class="button button-secondary button-small"
          aria-label="Copy the My List feed URL"
          onClick={async () => {
            await navigator.clipboard?.writeText(feedUrl).catch(() => {});
            setMessage({ error: false, text: "My List feed URL copied." });
          }}
        >
          Copy
        </button>
      </div>
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() =>
          run(async () => {
            try {
              const { data } = await api<{ feedUrl: string }>(
                "/api/me/connections/feed/rotate",
                { method: "POST", auth: true },
              );
              setFeedUrl(data.feedUrl);
              return { error: false, text: "New feed URL made; the old one no longer works." };
            } catch (error) {
              return formFailure(error);
            }
          })}
      >
        Make a new feed URL
      </button>
      <h3 id="seerr-heading">Seerr (Overseerr, Jellyseerr)</h3>
      <p class="hint">
        {seerr.url
          ? `Request buttons send films to ${seerr.url}. The API key is saved and is never shown again; save the form again to change it.`
          : "Save your Seerr's address and its API key (Seerr: Settings, General, API Key) and films get a Request button."}
      </p>
      <form
        class="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          saveSeerr(event.currentTarget);
        }}
      >
        <label>
          Seerr URL
          <input
            name="url"
            type="url"
            required
            maxLength={500}
            placeholder="https://seerr.example.com"
            value={seerr.url ?? ""}
          />
        </label>
        <label>
          API key
          <input
            name="apiKey"
            type="password"
            required
            maxLength={200}
            autoComplete="off"
            placeholder={seerr.url ? "saved (type a new one to replace it)" : ""}
          />
        </label>
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          Save Seerr
        </button>
      </form>
      {seerr.url && (
        <button
          type="button"
          class="button button-secondary"
          aria-disabled={busy ? "true" : undefined}
          onClick={() =>
            run(async () => {
              try {
                await api("/api/me/seerr", { method: "DELETE", auth: true });
                setSeerr({ url: null, savedAt: null });
                return { error: false, text: "Seerr forgotten, with its API key." };
              } catch (error) {
                return formFailure(error);
              }
            })}
        >
          Forget Seerr
        </button>
      )}
      <FormStatus message={message} />
    </div>
  );
}
