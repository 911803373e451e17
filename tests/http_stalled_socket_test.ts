/**
 * A request whose body stalls is answered 408 and its socket is then closed by the server
 * (issue 31, items 18 and 21): main.ts serves over connections of its own
 * (lib/http/serve_sockets.ts) because `Deno.serve` keeps such a socket open for as long as
 * the client does (docs/faults.md).
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { serveSockets } from "../lib/http/serve_sockets.ts";

const encoder = new TextEncoder();
const IDLE_MS = 300;

/** Everything the server sends until it closes the socket, or null when it is still open. */
async function readUntilClosed(conn: Deno.Conn, waitMs: number): Promise<string | null> {
  const buffer = new Uint8Array(8192);
  let text = "";
  let timedOut = false;
  // The guard only ends a failing test: a server that keeps the socket leaves it open for ever.
  const guard = setTimeout(() => {
    timedOut = true;
    conn.close();
  }, waitMs);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  clearTimeout(guard);
  if (timedOut) return null;
  conn.close();
  return text;
}

for (
  const framing of [
    { name: "chunked", head: "Transfer-Encoding: chunked", part: '9\r\n{"email":\r\n' },
    { name: "Content-Length", head: "Content-Length: 200", part: '{"email":' },
  ]
) {
  Deno.test(`a stalled ${framing.name} body is answered 408 and the server then closes the socket`, async () => {
    await using t = await testApp({ env: { BODY_TIMEOUT_MS: String(IDLE_MS) } });
    const server = serveSockets({ hostname: "127.0.0.1", port: 0 }, t.app.fetch);
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(encoder.encode(
        "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
          `Content-Type: application/json\r\n${framing.head}\r\n\r\n${framing.part}`,
      ));
      const text = await readUntilClosed(conn, 60 * IDLE_MS);
      assert.ok(text !== null, "the socket is still open long after the 408");
      assert.match(text, /^HTTP\/1\.1 408/, text);
      assert.match(text, /connection: close/i);
      assert.match(text, /"code":"body_timeout"/);
    } finally {
      await server.shutdown();
    }
  });
}

Deno.test("a connection whose answers say nothing of closing stays open for the next request", async () => {
  await using t = await testApp();
  const server = serveSockets({ hostname: "127.0.0.1", port: 0 }, t.app.fetch);
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    const buffer = new Uint8Array(8192);
    for (let i = 0; i < 2; i++) {
      await conn.write(encoder.encode("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
      const n = await conn.read(buffer);
      assert.ok(n !== null, `answer ${i + 1} arrives on the same socket`);
      assert.match(new TextDecoder().decode(buffer.subarray(0, n)), /^HTTP\/1\.1 200/);
    }
    conn.close();
  } finally {
    await server.shutdown();
  }
});

Deno.test("the handler sees the client's address, as Deno.serve gives it", async () => {
  let seen: Deno.NetAddr | undefined;
  const server = serveSockets({ hostname: "127.0.0.1", port: 0 }, (_request, info) => {
    seen = info.remoteAddr;
    return new Response("ok");
  });
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await res.text(), "ok");
    assert.equal(seen?.hostname, "127.0.0.1");
  } finally {
    await server.shutdown();
  }
});
