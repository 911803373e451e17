/**
 * DELETE /api/account under a stalled body: the body deadline's 408 `body_timeout`
 * (docs/faults.md) comes through as it is, not as the 400 `confirmation_required` of a body
 * that arrived but is not the confirmation; the account stays.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const encoder = new TextEncoder();

/** Sends the head of a chunked DELETE and the first chunk of its body, then stalls. */
async function stalledDelete(port: number, token: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(encoder.encode(
      `DELETE /api/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
        '7\r\n{"confi\r\n',
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

Deno.test("DELETE /api/account with a body that stalls answers 408 body_timeout, not 400 confirmation_required, and deletes nothing", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: "200" } });
  const user = await createUser(t.deps);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, t.app.fetch);
  try {
    const answer = await stalledDelete(server.addr.port, user.token);
    assert.match(answer, /^HTTP\/1\.1 408/, answer);
    assert.match(answer, /content-type: application\/problem\+json/i);
    assert.match(answer, /"code":"body_timeout"/);
  } finally {
    await server.shutdown();
  }
  const [row] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from auth.users where id = $1",
    [user.id],
  );
  assert.equal(row.n, 1, "the account is still there");
});
