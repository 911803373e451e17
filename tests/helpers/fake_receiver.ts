/**
 * What the alert channel fakes share (fake_ntfy, fake_discord, fake_standard_webhooks,
 * fake_apprise): a server on 127.0.0.1 that can answer late, never, or with a given error, to
 * play a slow or broken service.
 */

/** How the service misbehaves; all off by default. */
export interface FakeBehaviour {
  /** Answers after this many (wall-clock) milliseconds. */
  delayMs: number;
  /** Never answers (until the fake closes). */
  hang: boolean;
  /** Answers this status (with a short text body) instead of the service's own answer. */
  failWith?: number;
}

/** A running fake: its base URL and behaviour. */
interface FakeReceiver extends FakeBehaviour, AsyncDisposable {
  url: string;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 behind the shared misbehaviours. */
export function startFakeReceiver(
  handle: (request: Request, url: URL) => Promise<Response> | Response,
): FakeReceiver {
  const closing = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {}, signal: closing.signal },
    async (request) => {
      if (fake.hang) {
        await new Promise((resolve) => closing.signal.addEventListener("abort", resolve));
        return new Response(null, { status: 503 });
      }
      if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
      if (fake.failWith !== undefined) {
        await request.body?.cancel();
        return new Response("failing on purpose", { status: fake.failWith });
      }
      return await handle(request, new URL(request.url));
    },
  );
  const fake: FakeReceiver = {
    url: `http://127.0.0.1:${server.addr.port}`,
    delayMs: 0,
    hang: false,
    async close() {
      closing.abort();
      await server.finished;
    },
    async [Symbol.asyncDispose]() {
      await fake.close();
    },
  };
  return fake;
}
