/**
 * Serving HTTP/1.1 on our own listener, one `Deno.serveHttp` (hyper) per connection, instead of
 * `Deno.serve`: Deno 2.9.6's `Deno.serve` never closes a connection itself, neither after an
 * answer saying `Connection: close` nor after one sent before the request's body ended, so every
 * stalled body kept its socket and memory after the 408 (docs/faults.md, "Deno keeps the socket").
 * Here an answer saying `Connection: close` ends its connection once written, and the SIGTERM
 * drain answers every request it holds before the connections close. Deno Deploy serves only
 * `Deno.serve`; main.ts keeps it there (HTTP_SERVER in the README).
 */

/** One request of a connection (the runtime's `RequestEvent`, no longer in its types). */
interface RequestEvent {
  readonly request: Request;
  respondWith(response: Response): Promise<void>;
}

/** A connection served by `Deno.serveHttp` (kept by Deno 2's runtime, dropped from its types). */
interface HttpConn extends AsyncIterable<RequestEvent> {
  close(): void;
}

// Deno 2.9.6 still carries `Deno.serveHttp` at run time (tests/http_stalled_socket_test.ts
// fails first if a later Deno drops it).
const serveHttp = (Deno as unknown as { serveHttp(conn: Deno.Conn): HttpConn }).serveHttp;

/** The handler both servers call (the app's fetch). */
type ServeHandler = (
  request: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
) => Response | Promise<Response>;

/** What main.ts needs of a running server, whichever one serves. */
export interface RunningServer {
  addr: Deno.NetAddr;
  /**
   * Stops accepting, answers the requests in flight (and any already sent on an open
   * connection) with `Connection: close`, closes idle connections, and resolves when every
   * connection has ended.
   */
  shutdown(): Promise<void>;
}

/**
 * How long an idle connection stays open in the drain before it is closed: a request already on
 * its way (sent before the client saw the close) is answered, with `Connection: close`, and an
 * answer begun before the drain and just handed over gets time to leave (the runtime gives no
 * signal when its bytes are out, and closing at once cut it off; docs/faults.md).
 */
const DRAIN_GRACE_MS = 100;

/** The most event-loop turns the drain spends accepting what is already in the backlog. */
const BACKLOG_TURNS = 100;

/** One connection being served: its requests not yet answered, and its closing timer. */
interface Served {
  http: HttpConn;
  busy: number;
  closing?: ReturnType<typeof setTimeout>;
}

/** `response` saying `Connection: close` (a copy when its headers are immutable). */
function withClose(response: Response): Response {
  try {
    response.headers.set("connection", "close");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("connection", "close");
    return copy;
  }
}

/** Serves `handler` on `hostname`:`port` over connections this module owns. */
export function serveSockets(
  options: { port: number; hostname?: string },
  handler: ServeHandler,
): RunningServer {
  const listener = Deno.listen({ port: options.port, hostname: options.hostname ?? "0.0.0.0" });
  const connections = new Set<Served>();
  const ended = new Set<Promise<void>>();
  let stopping = false;
  let accepted = 0;

  const close = (served: Served) => {
    // Only a connection still being served: a handle already ended may have its id reused.
    if (!connections.delete(served)) return;
    clearTimeout(served.closing);
    try {
      served.http.close();
    } catch {
      // Already closed by the server itself (an unread body ends the connection).
    }
  };

  // During the drain a connection with no request to answer is closed after the grace.
  const closeWhenIdle = (served: Served) => {
    if (served.busy > 0 || served.closing !== undefined) return;
    served.closing = setTimeout(() => close(served), DRAIN_GRACE_MS);
  };

  const answer = async (event: RequestEvent, remoteAddr: Deno.NetAddr, served: Served) => {
    // `completed` is made only when asked for, as Deno.serve does: the app never asks, and a
    // promise per request is garbage on the hot path.
    let done: PromiseWithResolvers<void> | undefined;
    const info = {
      remoteAddr,
      get completed() {
        done ??= Promise.withResolvers<void>();
        return done.promise;
      },
    };
    let response: Response;
    try {
      response = await handler(event.request, info);
    } catch {
      // The app turns its own errors into problems; this is the last resort, as Deno.serve's.
      response = new Response("Internal Server Error", { status: 500 });
    }
    // Draining: this answer is the connection's last, and the runtime ends the connection
    // once it is written. Closing the handle ourselves after respondWith instead cut the
    // answer off (respondWith resolves when the answer is handed over, not sent), and the
    // client's retry met the closed listener (docs/faults.md).
    const last = stopping;
    if (last) response = withClose(response);
    try {
      await event.respondWith(response);
    } catch {
      // The client went away while the answer was being written.
    } finally {
      done?.resolve();
      served.busy--;
    }
    // No close() after a `Connection: close` answer: the server ends that connection itself,
    // and closing its handle again could close another connection that reused the handle's id.
    if (stopping && !last) closeWhenIdle(served);
  };

  const serveOne = async (conn: Deno.Conn) => {
    const remoteAddr = conn.remoteAddr as Deno.NetAddr;
    let http: HttpConn;
    try {
      http = serveHttp(conn);
    } catch {
      conn.close();
      return;
    }
    const served: Served = { http, busy: 0 };
    connections.add(served);
    try {
      for await (const event of http) {
        clearTimeout(served.closing);
        served.closing = undefined;
        served.busy++;
        answer(event, remoteAddr, served);
      }
    } catch {
      // A malformed request or a reset connection ends that connection only.
    } finally {
      clearTimeout(served.closing);
      connections.delete(served);
    }
  };

  const accepting = (async () => {
    for await (const conn of listener) {
      accepted++;
      const serving = serveOne(conn);
      ended.add(serving);
      serving.finally(() => ended.delete(serving));
    }
  })().catch(() => {
    // The listener was closed by shutdown().
  });

  return {
    addr: listener.addr as Deno.NetAddr,
    async shutdown() {
      stopping = true;
      // The connections the kernel has already completed (the listen backlog) are accepted and
      // served instead of reset by the close: turns of the event loop until one accepts nothing
      // (at most BACKLOG_TURNS, so a flood cannot hold the drain open).
      for (let turn = 0; turn < BACKLOG_TURNS; turn++) {
        const before = accepted;
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (accepted === before) break;
      }
      listener.close();
      await accepting;
      for (const served of [...connections]) closeWhenIdle(served);
      // Each remaining connection ends after its last answer (Connection: close), or once the
      // grace has passed with nothing to answer; main.ts bounds the whole drain.
      while (ended.size > 0) await Promise.allSettled([...ended]);
    },
  };
}
