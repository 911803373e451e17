/**
 * One POST of a sender to its target (docs/alerts.md, "Delivery"): redirects are not followed
 * (a 3xx is a failure), the attempt's signal bounds it, and the outcome names only the target's
 * host, never the whole URL (it may hold a token).
 */
import type { SenderDeps, SendResult } from "./types.ts";

/** The longest error text kept (the column holds 500). */
const MAX_ERROR = 300;

/** A post's outcome; a delivered one says which 2xx it got. */
type PostResult = (SendResult & { delivered: false }) | { delivered: true; status: number };

/** POSTs to `url` and answers delivered for a 2xx, else the failure in a sentence. */
export async function postToTarget(
  deps: SenderDeps,
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<PostResult> {
  const host = new URL(url).host;
  let res: Response;
  try {
    res = await deps.fetch(url, {
      method: "POST",
      headers: init.headers,
      body: init.body,
      redirect: "manual",
      signal: deps.signal,
    });
  } catch {
    return {
      delivered: false,
      error: deps.signal.aborted ? `${host} did not answer in time` : `could not reach ${host}`,
    };
  }
  const detail = await res.text().catch(() => "");
  if (res.ok) return { delivered: true, status: res.status };
  if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
    return {
      delivered: false,
      error: `${host} answered a redirect (HTTP ${res.status}), which is not followed`,
    };
  }
  const said = detail.replace(/\s+/g, " ").trim().slice(0, 120);
  return {
    delivered: false,
    error: `${host} answered HTTP ${res.status}${said ? `: ${said}` : ""}`.slice(0, MAX_ERROR),
  };
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
