/**
 * Follows a movie night's `text/event-stream` in the browser with the Bearer header (an
 * EventSource cannot send one): each event's name to `onEvent`, reconnecting after the server's
 * `retry` while the page is open (docs/nights.md, "Events").
 */
import { accessToken } from "./live_session.ts";

/** Starts following; the returned function stops. `onEnd` when the night ends or is not ours. */
export function followNight(
  nightId: string,
  handlers: { onEvent: (name: string) => void; onEnd: () => void },
): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  const run = async () => {
    let retry = 3000;
    while (!stopped) {
      controller = new AbortController();
      try {
        const token = await accessToken();
        if (!token) return handlers.onEnd();
        const res = await fetch(`/api/nights/${nightId}/events`, {
          headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (res.status === 404 || res.status === 410) return handlers.onEnd();
        if (res.ok && res.body) {
          // Reconnected: whatever happened meanwhile is read again.
          handlers.onEvent("open");
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          while (true) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let cut;
            while ((cut = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const name = /^event: (.+)$/m.exec(block)?.[1];
              const wait = /^retry: (\d+)$/m.exec(block)?.[1];
              if (wait) retry = Number(wait);
              if (name === "end") return handlers.onEnd();
              if (name) handlers.onEvent(name);
            }
          }
        }
      } catch {
        // A dropped connection: try again below.
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, retry));
    }
  };
  run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
