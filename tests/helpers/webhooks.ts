/**
 * Sending media-server webhooks to a test app (docs/connections.md): the recorded payloads of
 * tests/fixtures/webhooks (SOURCES.md there says where each came from), posted as each server
 * posts them, and the user's webhook path.
 */
import plexScrobble from "../fixtures/webhooks/plex-media-scrobble.json" with { type: "json" };
import plexRate from "../fixtures/webhooks/plex-media-rate.json" with { type: "json" };
import plexEpisode from "../fixtures/webhooks/plex-episode-media-resume.json" with {
  type: "json",
};
import jellyfinStop from "../fixtures/webhooks/jellyfin-playback-stop.json" with { type: "json" };
import jellyfinSaved from "../fixtures/webhooks/jellyfin-user-data-saved.json" with {
  type: "json",
};
import embyStop from "../fixtures/webhooks/emby-playback-stop.json" with { type: "json" };
import type { TestUser } from "./users.ts";

type Json = Record<string, unknown>;

/** A fresh copy of a recorded payload, to change in a test. */
export const payloads = {
  plexScrobble: (): Json => structuredClone(plexScrobble),
  plexRate: (): Json => structuredClone(plexRate),
  plexEpisode: (): Json => structuredClone(plexEpisode),
  jellyfinStop: (): Json => structuredClone(jellyfinStop),
  jellyfinSaved: (): Json => structuredClone(jellyfinSaved),
  embyStop: (): Json => structuredClone(embyStop),
};

/** Plex's multipart form: the JSON in `payload`, and a `thumb` JPEG as Plex adds for some events. */
export function plexForm(payload: Json): RequestInit {
  const form = new FormData();
  form.set("payload", JSON.stringify(payload));
  form.set("thumb", new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: "image/jpeg" }));
  return { method: "POST", body: form };
}

/** A JSON body as the Jellyfin plugin sends it (text/plain unless configured) or Emby (JSON). */
export function jsonPost(payload: unknown, type = "application/json"): RequestInit {
  return { method: "POST", headers: { "content-type": type }, body: JSON.stringify(payload) };
}

/** The user's webhook base path (`/hooks/<secret>`), from GET /api/me/connections. */
export async function hookPath(
  t: { request(path: string, init?: RequestInit): Promise<Response> },
  user: TestUser,
): Promise<string> {
  const res = await t.request("/api/me/connections", { headers: user.headers });
  const body = await res.json();
  return new URL(body.webhookUrl).pathname;
}
