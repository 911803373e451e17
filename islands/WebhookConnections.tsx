/**
 * The media-server webhooks on /account/connections (docs/connections.md): the URL of each
 * receiver with a Copy button, a new secret on request (the old URL dies at once), the Plex
 * account filter and the My List setting, and the recent events with a Refresh button. The
 * first state arrives rendered by the server.
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import type { ConnectionSettings, ReceivedEvent } from "../lib/connections/webhooks/mod.ts";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

const RECEIVERS = [
  ["plex", "Plex"],
  ["jellyfin", "Jellyfin"],
  ["emby", "Emby"],
  ["generic", "Other (generic JSON)"],
] as const;

const RESULTS: Record<string, string> = {
  logged: "Logged",
  rated: "Rated",
  ignored: "Ignored",
  unmatched: "Not matched",
  invalid: "Unreadable",
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** `settings`: the webhook URL and settings; `events`: the last received, newest first. */
export default function WebhookConnections(
  { settings: initial, events: initialEvents }: {
    settings: ConnectionSettings;
    events: ReceivedEvent[];
  },
) {
  const [settings, setSettings] = useState(initial);
  const [events, setEvents] = useState(initialEvents);
  const { busy, message, setMessage, run } = useAction();

  async function save(form: HTMLFormElement) {
    const data = new FormData(form);
    await run(async () => {
      try {
        const { data: saved } = await api<ConnectionSettings>("/api/me/connections", {
          method: "PUT",
          auth: true,
          body: {
            plexUsername: String(data.get("plexUsername") ?? ""),
            removeFromMyList: data.get("removeFromMyList") === "on",
          },
        });
        setSettings(saved);
        return { error: false, text: "Settings saved." };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <div class="webhooks">
      <ul class="webhook-urls">
        {RECEIVERS.map(([path, name]) => {
          const url = `${settings.webhookUrl}/${path}`;
          return (
            <li key={path}>
              <label>
                {name} webhook URL
                <input readOnly value={url} class="token-value" />
              </label>
              <button
                type="button"
                class="button button-secondary button-small"
                aria-label={`Copy the ${name} webhook URL`}
                onClick={async () => {
                  await navigator.clipboard?.writeText(url).catch(() => {});
                  setMessage({ error: false, text: `${name} webhook URL copied.` });
                }}
              >
                Copy
              </button>
            </li>
          );
        })}
      </ul>
      <p class="hint">
        Anyone with this URL can add films to your diary. If it leaked, make a new one: the old one
        stops working at once, so paste the new one into your media server.
      </p>
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() =>
          run(async () => {
            try {
              const { data } = await api<{ webhookUrl: string }>("/api/me/connections/rotate", {
                method: "POST",
                auth: true,
              });
              setSettings({ ...settings, webhookUrl: data.webhookUrl });
              return { error: false, text: "New webhook URL made; the old one no longer works." };
            } catch (error) {
              return formFailure(error);
            }
          })}
      >
        Make a new webhook URL
      </button>
      <form
        class="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          save(event.currentTarget);
        }}
      >
        <label>
          Only this Plex account
          <input
            name="plexUsername"
            maxLength={100}
            value={settings.plexUsername ?? ""}
            placeholder="any account"
          />
        </label>
        <label class="checkbox">
          <input
            type="checkbox"
            name="removeFromMyList"
            checked={settings.removeFromMyList}
          />{" "}
          Take a film off My List when it is logged
        </label>
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          Save settings
        </button>
      </form>
      <FormStatus message={message} />
      <h3 id="events-heading">Recent events</h3>
      <button
        type="button"
        class="button button-small button-secondary"
        onClick={() =>
          run(async () => {
            try {
              const { data } = await api<{ events: ReceivedEvent[] }>(
                "/api/me/connections/events",
                { auth: true },
              );
              setEvents(data.events);
              return null;
            } catch (error) {
              return formFailure(error);
            }
          })}
      >
        Refresh
      </button>
      {events.length
        ? (
          <table class="webhook-events" aria-labelledby="events-heading">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Server</th>
                <th scope="col">Event</th>
                <th scope="col">Film</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{when(e.at)}</td>
                  <td>{e.source}</td>
                  <td>{e.event || "—"}</td>
                  <td>
                    {e.catalogId !== null
                      ? <a href={`/movies/${e.catalogId}`}>{e.title ?? `#${e.catalogId}`}</a>
                      : e.title ?? "—"}
                    {e.year ? ` (${e.year})` : ""}
                  </td>
                  <td>
                    {RESULTS[e.result] ?? e.result}
                    {e.reason ? ` (${e.reason.replaceAll("_", " ")})` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p class="hint">Nothing received yet.</p>}
    </div>
  );
}
