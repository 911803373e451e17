import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function write(u: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

async function ids(res: Response): Promise<number[]> {
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.success, true);
  return body.movies.map((m: { catalogId: number }) => m.catalogId);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/watched in both forms lists newest first, once each`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const clock = t.clock;
    let res = await t.request("/api/watched", write(u, "POST", { catalogId: 11 }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { success: true, watchedCount: null });
    clock.advance(1000);
    res = await t.request("/api/watched", write(u, "POST", { movie: { catalogId: 22 } }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    (await t.request("/api/watched", write(u, "POST", { catalogId: 11 }))).body?.cancel();
    assert.deepEqual(await ids(await t.request("/api/watched", { headers: u.headers })), [22, 11]);
    res = await t.request("/api/watched", write(u, "DELETE", { catalogId: 11 }));
    assert.deepEqual(await res.json(), { success: true, watchedCount: null });
    (await t.request("/api/watched", write(u, "DELETE", { catalogId: 999 }))).body?.cancel();
    assert.deepEqual(await ids(await t.request("/api/watched", { headers: u.headers })), [22]);
  });

  Deno.test(`[${engine}] POST /api/mylist on a watched movie answers 409 already_watched`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    (await t.request("/api/mylist", write(u, "POST", { catalogId: 5 }))).body?.cancel();
    (await t.request("/api/mylist", write(u, "POST", { catalogId: 3 }))).body?.cancel();
    (await t.request("/api/mylist", write(u, "POST", { catalogId: 7 }))).body?.cancel();
    assert.deepEqual(await ids(await t.request("/api/mylist", { headers: u.headers })), [5, 3, 7]);
    (await t.request("/api/watched", write(u, "POST", { catalogId: 3 }))).body?.cancel();
    assert.deepEqual(await ids(await t.request("/api/mylist", { headers: u.headers })), [5, 7]);
    const res = await t.request("/api/mylist", write(u, "POST", { catalogId: 3 }));
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, "already_watched");
    assert.deepEqual(await ids(await t.request("/api/mylist", { headers: u.headers })), [5, 7]);
  });
}
