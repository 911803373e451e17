import assert from "node:assert/strict";
import { readWritePayload } from "../lib/http/payloads.ts";
import type { Problem } from "../lib/core/problem.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const INVALID: [string, string, string][] = [
  ["missing", "{}", "invalid_body"],
  ["string", '{"catalogId":"12"}', "invalid_catalog_id"],
  ["float", '{"catalogId":12.5}', "invalid_catalog_id"],
  ["zero", '{"catalogId":0}', "invalid_catalog_id"],
  ["negative", '{"catalogId":-3}', "invalid_catalog_id"],
  ["2^31", '{"catalogId":2147483648}', "invalid_catalog_id"],
  ["null", '{"catalogId":null}', "invalid_catalog_id"],
  ["bare null", "null", "invalid_body"],
  ["empty movie", '{"movie":{}}', "invalid_body"],
  ["array", "[12]", "invalid_body"],
  ["non-JSON", "catalogId=12", "invalid_body"],
  ["20 KiB", JSON.stringify({ catalogId: 12, pad: "x".repeat(20 * 1024) }), "invalid_body"],
];

Deno.test("every invalid write payload answers 400 and stores nothing", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  for (const path of ["/api/watched", "/api/mylist"]) {
    for (const method of ["POST", "DELETE"]) {
      for (const [name, body, code] of INVALID) {
        const res = await t.request(path, {
          method,
          headers: { ...u.headers, "content-type": "application/json" },
          body,
        });
        assert.equal(res.status, 400, `${method} ${path} ${name}`);
        assert.equal((await res.json()).code, code, `${method} ${path} ${name}`);
      }
      const res = await t.request(path, {
        method,
        headers: { ...u.headers, "content-type": "text/plain" },
        body: '{"catalogId":12}',
      });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).code, "invalid_body");
    }
  }
  const [w] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from public.user_watched_movies",
  );
  const [m] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from public.user_my_list",
  );
  assert.equal(w.n, 0);
  assert.equal(m.n, 0);
});

Deno.test("the largest catalog id 2147483647 is accepted", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const res = await t.request("/api/watched", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: '{"catalogId":2147483647}',
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
});

Deno.test("list routes answer 401 without or with a bad token, and 405 with Allow", async () => {
  await using t = await testApp();
  for (const path of ["/api/watched", "/api/mylist"]) {
    for (
      const headers of [{}, { authorization: "Bearer not.a.token" }] as Record<string, string>[]
    ) {
      const res = await t.request(path, { method: "POST", headers, body: "not json" });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).code, "unauthorized");
    }
    for (const method of ["PUT", "PATCH"]) {
      const res = await t.request(path, { method });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("allow"), "GET, POST, DELETE");
      await res.body?.cancel();
    }
  }
});

Deno.test("a chunked body without Content-Length stops being read past 16 KiB", async () => {
  let pulled = 0;
  // An endless body: the payload reader must give up on it, not buffer it.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024).fill(0x20));
    },
  });
  const req = new Request("http://x/api/watched", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  await assert.rejects(readWritePayload(req), (e: Problem) => e.code === "invalid_body");
  assert.ok(pulled <= 20, `read ${pulled} chunks`);
});
