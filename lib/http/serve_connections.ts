/**
 * Serving HTTP/1.1 on our own listener, one `Deno.serveHttp` per connection, instead of
 * `Deno.serve`: `Deno.serve` (Deno 2.9.6) never closes a connection whose request body is still
 * unfinished when the answer is sent, so every stalled body kept its socket and memory after the
 * 408 (docs/faults.md, "Deno keeps the socket"). Over a connection of its own, the server drops
 * such a socket after the answer, and a response saying `Connection: close` closes it here too.
 * Deno Deploy serves only `Deno.serve`; main.ts keeps it there (HTTP_SERVER in the README).
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
  /** Stops accepting, waits for the requests in flight, then closes idle connections. */
  shutdown(): Promise<void>;
}

/** Serves `handler` on `hostname`:`port` over connections this module owns. */
export function serveConnections(
  options: { port: number; hostname?: string },
  handler: ServeHandler,
): RunningServer {
  const listener = Deno.listen({ port: options.port, hostname: options.hostname ?? "0.0.0.0" });
  const connections = new Set<HttpConn>();
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  const answer = async (event: RequestEvent, remoteAddr: Deno.NetAddr, http: HttpConn) => {
    const done = Promise.withResolvers<void>();
    let response: Response;
    try {
      response = await handler(event.request, { remoteAddr, completed: done.promise });
    } catch {
      // The app turns its own errors into problems; this is the last resort, as Deno.serve's.
      response = new Response("Internal Server Error", { status: 500 });
    }
    try {
      await event.respondWith(response);
    } catch {
      // The client went away while the answer was being written.
    } finally {
      done.resolve();
    }
    // No close() after a `Connection: close` answer: the server ends that connection itself,
    // and closing its handle again could close another connection that reused the handle's id.
    if (stopping) close(http);
  };

  const close = (http: HttpConn) => {
    // Only a connection still being served: a handle already ended may have its id reused.
    if (!connections.delete(http)) return;
    try {
      http.close();
    } catch {
      // Already closed by the server itself (an unread body ends the connection).
    }
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
    connections.add(http);
    try {
      for await (const event of http) {
        const task = answer(event, remoteAddr, http);
        inFlight.add(task);
        task.finally(() => inFlight.delete(task));
      }
    } catch {
      // A malformed request or a reset connection ends that connection only.
    } finally {
      connections.delete(http);
    }
  };

  const accepting = (async () => {
    for await (const conn of listener) serveOne(conn);
  })().catch(() => {
    // The listener was closed by shutdown().
  });

  return {
    addr: listener.addr as Deno.NetAddr,
    async shutdown() {
      stopping = true;
      listener.close();
      await accepting;
      await Promise.allSettled([...inFlight]);
      for (const http of [...connections]) close(http);
    },
  };
}
