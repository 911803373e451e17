/**
 * The drain of our own server on Deno's sockets (lib/http/serve_sockets.ts; docs/faults.md, "Deno keeps
 * the socket"): on shutdown a request in flight is answered (with `Connection: close`, so its
 * connection then ends), an idle keep-alive connection is closed, and new connections are
 * refused once the listener is closed. The handlers wait on promises the tests release: no
 * timing.
 */
import assert from "node:assert/strict";
import { serveSockets } from "../lib/http/serve_sockets.ts";

const encoder = new TextEncoder();

/** A server whose `/slow` answers only once `release()` is called; `entered` says it began. */
function slowServer() {
  const entered = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const server = serveSockets({ hostname: "127.0.0.1", port: 0 }, async (request) => {
    if (new URL(request.url).pathname === "/slow") {
      entered.resolve();
      await gate.promise;
      return new Response("slow done");
    }
    return new Response("fast");
  });
  return { server, entered: entered.promise, release: () => gate.resolve() };
}

/** Everything the server sends until it closes the socket. */
async function readToEnd(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  let text = "";
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  conn.close();
  return text;
}

/** One answer of a keep-alive connection (small bodies arrive in one read). */
async function readAnswer(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  const n = await conn.read(buffer);
  assert.ok(n !== null, "an answer arrives");
  return new TextDecoder().decode(buffer.subarray(0, n));
}

Deno.test("a request in flight on a pooled keep-alive connection is answered through the drain", async () => {
  const { server, entered, release } = slowServer();
  const url = `http://127.0.0.1:${server.addr.port}`;
  // The first answer leaves its connection in fetch's pool; the slow request reuses it, as a
  // client's request does when SIGTERM arrives (tests/shutdown_test.ts).
  const first = await fetch(`${url}/fast`);
  assert.equal(await first.text(), "fast");
  const slow = fetch(`${url}/slow`);
  await entered;
  const stopped = server.shutdown();
  release();
  const answered = await slow;
  assert.equal(answered.status, 200);
  assert.equal(answered.headers.get("connection"), "close");
  assert.equal(await answered.text(), "slow done");
  await stopped;
  await assert.rejects(fetch(`${url}/fast`), "a new connection is refused after the drain");
});

Deno.test("a request in flight at shutdown gets its whole answer with Connection: close, then the socket closes", async () => {
  const { server, entered, release } = slowServer();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  await conn.write(encoder.encode("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  await entered;
  const stopped = server.shutdown();
  release();
  const text = await readToEnd(conn);
  assert.match(text, /^HTTP\/1\.1 200/, text);
  assert.match(text, /connection: close/i);
  assert.match(text, /slow done$/);
  await stopped;
});

Deno.test("shutdown closes an idle keep-alive connection and then refuses new ones", async () => {
  const { server } = slowServer();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  await conn.write(encoder.encode("GET /fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  const first = await readAnswer(conn);
  assert.doesNotMatch(first, /connection: close/i, "kept alive before the shutdown");
  await server.shutdown();
  assert.equal(await readToEnd(conn), "", "the idle connection is closed, nothing more sent");
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }));
});

Deno.test("connections made and requests sent before shutdown are served, not reset by the closing listener", async () => {
  const { server } = slowServer();
  // The kernel completes each handshake at once; the server accepts them later (the backlog).
  const conns = await Promise.all(
    Array.from(
      { length: 50 },
      () => Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }),
    ),
  );
  for (const conn of conns) {
    await conn.write(encoder.encode("GET /fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  }
  const stopped = server.shutdown();
  const texts = await Promise.all(conns.map(readToEnd));
  for (const text of texts) {
    assert.match(text, /^HTTP\/1\.1 200/, text);
    assert.match(text, /connection: close/i);
  }
  await stopped;
});

Deno.test("a handler's info.completed settles once its answer is handed over, made only when asked", async () => {
  const settled: string[] = [];
  const server = serveSockets({ hostname: "127.0.0.1", port: 0 }, (request, info) => {
    if (new URL(request.url).pathname === "/watch") {
      info.completed.then(() => settled.push("completed"));
    }
    return new Response("ok");
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  assert.equal(await (await fetch(`${base}/plain`)).text(), "ok");
  assert.equal(await (await fetch(`${base}/watch`)).text(), "ok");
  // The answer is out before `completed` settles; a few turns let it.
  for (let i = 0; i < 10 && settled.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(settled, ["completed"]);
  await server.shutdown();
});
