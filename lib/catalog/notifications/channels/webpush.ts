/**
 * The Web Push sender (docs/alerts.md, "Web Push"): the message as JSON, encrypted for the
 * subscription as RFC 8291 `aes128gcm` and signed with the server's VAPID key (RFC 8292), both by
 * the `web-push` package, then POSTed by our own fetch (so the attempt's deadline, the target
 * guard and "redirects not followed" apply as to every channel). `TTL` is a day: a phone that is
 * off for longer misses the alert, which the bell still lists.
 */
import webpush from "web-push";
import type { ChannelSender, SendResult } from "./types.ts";
import { pushPayload } from "../web_push/payload.ts";
import { vapidKeys, vapidSubject } from "../web_push/vapid_keys.ts";

/** How long a push service keeps a message for a device that is offline, in seconds. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

function outcome(status: number): SendResult {
  if (status >= 200 && status < 300) return { delivered: true };
  // RFC 8030 §7.3: the subscription expired or was unsubscribed; it never comes back.
  if (status === 404 || status === 410) {
    return {
      delivered: false,
      error: `the push service says this device's subscription is gone (${status})`,
      remove: true,
    };
  }
  if (status === 401 || status === 403) {
    return {
      delivered: false,
      error: `the push service refused the server's VAPID key (${status}); ` +
        "was VAPID_PRIVATE_KEY changed since this device subscribed?",
    };
  }
  if (status === 413) {
    return { delivered: false, error: "the push service found the message too large (413)" };
  }
  if (status === 429) {
    return { delivered: false, error: "the push service asks to slow down (429)" };
  }
  return { delivered: false, error: `the push service answered ${status}` };
}

/** Sends one message to one browser's push subscription. */
export const sendWebPush: ChannelSender = async (channel, message, deps) => {
  if (channel.type !== "webpush") {
    return { delivered: false, error: `a ${channel.type} channel is not a web push one` };
  }
  const keys = await vapidKeys(deps.config);
  let request: {
    endpoint: string;
    headers: Record<string, string | number>;
    body: Uint8Array | null;
  };
  try {
    request = webpush.generateRequestDetails(
      channel.subscription,
      JSON.stringify(pushPayload(message, deps.config.siteUrl)),
      {
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: "aes128gcm",
        vapidDetails: { subject: vapidSubject(deps.config), ...keys },
      },
    );
  } catch {
    // Never the library's message: it may quote the endpoint, which is never logged whole.
    return { delivered: false, error: "this device's subscription keys cannot be used" };
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // fetch sets the length of the body itself.
    if (name.toLowerCase() !== "content-length") headers.set(name, String(value));
  }
  let response: Response;
  try {
    response = await deps.fetch(request.endpoint, {
      method: "POST",
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: "manual",
      signal: deps.signal,
    });
  } catch (error) {
    const timedOut = deps.signal.aborted;
    return {
      delivered: false,
      error: timedOut
        ? "the push service did not answer in time"
        : `the push service could not be reached (${(error as Error).name})`,
    };
  }
  await response.body?.cancel();
  return outcome(response.status);
};
