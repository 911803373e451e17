/**
 * GoTrue's routes under a stalled body: `readGoTrueBody` keeps the 408 `body_timeout` of the
 * body deadline (docs/faults.md) instead of turning it into GoTrue's 400 `bad_json`, on every
 * route that reads one; a body that is merely not JSON still answers `bad_json`.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const encoder = new TextEncoder();

/** Sends the head of a chunked request and one chunk of its body, then stalls. */
async function stalledRequest(
  port: number,
  head: { method: string; path: string; authorization?: string },
): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const auth = head.authorization ? `Authorization: ${head.authorization}\r\n` : "";
    await conn.write(encoder.encode(
      `${head.method} ${head.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
        '5\r\n{"ema\r\n',
    ));
    const buffer = new Uint8Array(8192);
    let text = "";
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return text;
      text += new TextDecoder().decode(buffer.subarray(0, n));
      if (/\r\n\r\n[\s\S]*\}\s*$/.test(text)) return text;
    }
  } finally {
    conn.close();
  }
}

/** Serves a test app with a 200 ms body deadline and runs `body` against its port. */
async function withServer(
  body: (port: number, t: Awaited<ReturnType<typeof testApp>>) => Promise<void>,
): Promise<void> {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: "200" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, t.app.fetch);
  try {
    await body(server.addr.port, t);
  } finally {
    await server.shutdown();
  }
}

function assertBodyTimeout(answer: string): void {
  assert.match(answer, /^HTTP\/1\.1 408/, answer);
  assert.match(answer, /content-type: application\/problem\+json/i);
  assert.match(answer, /"code":"body_timeout"/);
}

Deno.test("POST /auth/v1/recover with a body that stalls answers 408 body_timeout, not 400 bad_json", async () => {
  await withServer(async (port) => {
    assertBodyTimeout(await stalledRequest(port, { method: "POST", path: "/auth/v1/recover" }));
  });
});

Deno.test("POST /auth/v1/verify with a body that stalls answers 408 body_timeout, not 400 bad_json", async () => {
  await withServer(async (port) => {
    assertBodyTimeout(await stalledRequest(port, { method: "POST", path: "/auth/v1/verify" }));
  });
});

Deno.test("PUT /auth/v1/user with a body that stalls answers 408 body_timeout, not 400 bad_json", async () => {
  await withServer(async (port, t) => {
    const user = await createUser(t.deps);
    const answer = await stalledRequest(port, {
      method: "PUT",
      path: "/auth/v1/user",
      authorization: `Bearer ${user.token}`,
    });
    assertBodyTimeout(answer);
  });
});

Deno.test("POST /auth/v1/recover with a body that is not JSON still answers GoTrue's 400 bad_json", async () => {
  await using t = await testApp();
  const res = await t.request("/auth/v1/recover", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error_code ?? body.code, "bad_json", JSON.stringify(body));
});
