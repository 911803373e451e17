import assert from "node:assert/strict";
import { readJson } from "../lib/http/read_body.ts";
import { testApp } from "./helpers/app.ts";

/** Serves `t.app` on a real loopback port (so a raw socket can stall or drop a body). */
function serve(
  app: { fetch(r: Request, info: Deno.ServeHandlerInfo): Response | Promise<Response> },
) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
}

const encoder = new TextEncoder();

/** Sends the head of a chunked POST and one chunk of its body, then leaves it unfinished. */
async function startBody(port: number): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(
    "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
      '5\r\n{"ema\r\n',
  ));
  return conn;
}

async function readAll(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  let text = "";
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) return text;
    text += new TextDecoder().decode(buffer.subarray(0, n));
    if (/\r\n\r\n[\s\S]*"code":"[a-z_]+"[\s\S]*\}/.test(text)) return text;
  }
}

Deno.test("a request body that does not arrive within the deadline ends with 408 body_timeout", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: "200" } });
  const server = serve(t.app);
  try {
    const conn = await startBody(server.addr.port);
    const answer = await readAll(conn);
    conn.close();
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.match(answer, /content-type: application\/problem\+json/i);
    assert.match(answer, /"code":"body_timeout"/);
    assert.equal(t.logs.filter((line) => line.level === "error").length, 0);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a client that aborts its body is logged at info as 499, not as a 500 internal_error", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: "5000" } });
  const server = serve(t.app);
  try {
    const conn = await startBody(server.addr.port);
    // Wait until the handler is reading, then drop the connection mid-body.
    await new Promise((resolve) => setTimeout(resolve, 100));
    conn.close();
    for (let i = 0; i < 100 && !t.logs.some((line) => line.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const line = t.logs.find((l) => l.path === "/auth/v1/token");
    assert.ok(line, JSON.stringify(t.logs));
    assert.equal(line.level, "info");
    assert.equal(line.status, 499);
    assert.equal(t.logs.filter((l) => l.level === "error").length, 0, JSON.stringify(t.logs));
  } finally {
    await server.shutdown();
  }
});

Deno.test("reading a body turns a stream failure into 499 client_closed_request", async () => {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new TypeError("connection reset"));
    },
  });
  const request = new Request("http://x/", { method: "POST", body });
  await assert.rejects(readJson(request), { status: 499, code: "client_closed_request" });
});

Deno.test("a body that arrives in time is read whole through the deadline", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: "1000" } });
  const res = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "nobody@example.test", password: "wrong-password" }),
  });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).msg, "Invalid login credentials");
});
