/**
 * A request body must keep arriving, or reading it fails with 408 `body_timeout`: a client that
 * sends headers and then trickles or stalls its body would otherwise hold the request, and its
 * memory, forever. Two bounds (issue 24): an idle deadline (no byte for `BODY_TIMEOUT_MS`,
 * 10 s) and a total bound sized for the route: the idle deadline itself for the small JSON
 * bodies, 12 times it (120 s) for a history upload of up to 20 MiB, which an ordinary uplink
 * cannot send in 10 s.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Middleware } from "../app_env.ts";

/** How long a request body may go without a byte (and the total of a small body). */
const BODY_TIMEOUT_MS = 10_000;

/** Routes whose bodies are large, and their total bound as a multiple of the idle deadline. */
const LONG_BODY_ROUTES: Record<string, number> = {
  "POST /api/import": 12,
};

/** The problem a body that did not arrive in time becomes. */
function bodyTimeout(ms: number): Problem {
  return new Problem(
    408,
    "body_timeout",
    `The request body did not arrive within ${ms / 1000} s.`,
    { headers: { Connection: "close" } },
  );
}

/**
 * `body` as a stream that errors with 408 `body_timeout` when no byte arrives for `idleMs`, or
 * when it has not ended after `totalMs`.
 */
function deadlineBody(
  body: ReadableStream<Uint8Array>,
  bounds: { idleMs: number; totalMs: number },
): { stream: ReadableStream<Uint8Array>; clear(): void } {
  const reader = body.getReader();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let total: ReturnType<typeof setTimeout> | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const clear = () => {
    clearTimeout(idle);
    clearTimeout(total);
  };
  const expire = (ms: number) => () => {
    clear();
    controller.error(bodyTimeout(ms));
    reader.cancel().catch(() => {});
  };
  const restartIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(expire(bounds.idleMs), bounds.idleMs);
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      restartIdle();
      total = setTimeout(expire(bounds.totalMs), bounds.totalMs);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          clear();
          controller.close();
        } else {
          restartIdle();
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

/**
 * Middleware putting the deadlines on every request body: no byte for `idleMs`, and a total of
 * `idleMs` (times the route's factor in `LONG_BODY_ROUTES`).
 */
export function bodyDeadline(
  idleMs: number = BODY_TIMEOUT_MS,
  longRoutes: Record<string, number> = LONG_BODY_ROUTES,
): Middleware {
  return async function bodyDeadline(c, next) {
    const raw = c.req.raw;
    if (!raw.body) return await next();
    const totalMs = idleMs * (longRoutes[`${raw.method} ${c.req.path}`] ?? 1);
    const { stream, clear } = deadlineBody(raw.body, { idleMs, totalMs });
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
