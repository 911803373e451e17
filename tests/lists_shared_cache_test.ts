/**
 * A shared list's answers carry the same caching rule as its page (docs/lists.md): `no-cache`,
 * so a cache asks again each time and a revoked link is gone at once.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";

Deno.test("GET /api/shared/:slug answers Cache-Control: no-cache, as the /s/:slug page does", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const id = await makeList(t, u, { name: "Rainy Sunday" });
  const shared = await t.request(`/api/lists/${id}/share`, json(u, "POST"));
  const slug = new URL((await shared.json()).shareUrl).pathname.split("/")[2];
  const api = await t.request(`/api/shared/${slug}`);
  assert.equal(api.status, 200);
  await api.body?.cancel();
  const page = await t.request(`/s/${slug}`);
  assert.equal(page.status, 200);
  await page.body?.cancel();
  assert.equal(page.headers.get("cache-control"), "no-cache");
  assert.equal(api.headers.get("cache-control"), page.headers.get("cache-control"));
});
