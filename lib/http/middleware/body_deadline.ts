/**
 * A request body must arrive within a deadline (contract section 14: 10 s), or reading it fails
 * with 408 `body_timeout`: a client that sends headers and then trickles or stalls its body
 * would otherwise hold the request, and its memory, forever.
 */
import { Problem } from "../../problem.ts";
import type { Middleware } from "../app_env.ts";

/** How long a request body may take to arrive, from the moment its headers were handled. */
export const BODY_TIMEOUT_MS = 10_000;

/** The problem a body that did not arrive in time becomes. */
export function bodyTimeout(ms: number): Problem {
  return new Problem(
    408,
    "body_timeout",
    `The request body did not arrive within ${ms / 1000} s.`,
    { headers: { Connection: "close" } },
  );
}

/** `body` as a stream that errors with 408 `body_timeout` unless it ends within `ms`. */
export function deadlineBody(
  body: ReadableStream<Uint8Array>,
  ms: number,
): { stream: ReadableStream<Uint8Array>; clear(): void } {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clear = () => clearTimeout(timer);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        controller.error(bodyTimeout(ms));
        reader.cancel().catch(() => {});
      }, ms);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          clear();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        clear();
        try {
          controller.error(error);
        } catch {
          // already errored by the deadline
        }
      }
    },
    cancel(reason) {
      clear();
      return reader.cancel(reason);
    },
  });
  return { stream, clear };
}

/** Middleware putting a deadline of `ms` on every request body. */
export function bodyDeadline(ms: number = BODY_TIMEOUT_MS): Middleware {
  return async function bodyDeadline(c, next) {
    const raw = c.req.raw;
    if (!raw.body) return await next();
    const { stream, clear } = deadlineBody(raw.body, ms);
    // Built from its parts, not from `raw`: copying a served request's signal makes Deno warn.
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      body: stream,
      duplex: "half",
    } as RequestInit);
    try {
      await next();
    } finally {
      clear();
    }
  };
}
