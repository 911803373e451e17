/**
 * A TCP proxy in front of PostgreSQL that a test controls, to make the database look frozen
 * (bytes held, as with SIGSTOP of the server) or stopped (connections cut and refused) and
 * then bring it back, without touching the shared server.
 */

/** The proxy and its switches. */
interface TcpProxy extends AsyncDisposable {
  port: number;
  /** Stop passing bytes in either direction; connections stay open (a frozen server). */
  freeze(): void;
  /** Cut every connection and refuse new ones (a stopped server). */
  stop(): void;
  /** Pass bytes again and accept connections. */
  resume(): void;
}

/** `url` with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(proxy.port);
  return u.href;
}

/** Starts a proxy to `target` on a free loopback port. */
export function startTcpProxy(target: { hostname: string; port: number }): TcpProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let state = "open" as "open" | "frozen" | "stopped";
  let thaw = Promise.withResolvers<void>();
  const conns = new Set<Deno.Conn>();
  const closeAll = () => {
    for (const conn of conns) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
    conns.clear();
  };
  const pump = async (from: Deno.Conn, to: Deno.Conn) => {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await from.read(buffer);
        if (n === null) break;
        while (state === "frozen") await thaw.promise;
        if (state === "stopped") break;
        let at = 0;
        while (at < n) at += await to.write(buffer.subarray(at, n));
      }
    } catch {
      // either side closed
    }
    for (const conn of [from, to]) {
      try {
        conn.close();
      } catch {
        // already closed
      }
      conns.delete(conn);
    }
  };
  const accepting = (async () => {
    for await (const client of listener) {
      if (state === "stopped") {
        client.close();
        continue;
      }
      let server: Deno.Conn;
      try {
        server = await Deno.connect(target);
      } catch {
        client.close();
        continue;
      }
      conns.add(client).add(server);
      pump(client, server);
      pump(server, client);
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    freeze() {
      state = "frozen";
    },
    stop() {
      state = "stopped";
      thaw.resolve();
      closeAll();
    },
    resume() {
      state = "open";
      thaw.resolve();
      thaw = Promise.withResolvers<void>();
    },
    async [Symbol.asyncDispose]() {
      state = "stopped";
      thaw.resolve();
      listener.close();
      closeAll();
      await accepting;
    },
  };
}
