import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { sessionCookie } from "./helpers/web.ts";

// The page folder's middleware joins only the page routes' chains (its `skip`), so these pin
// that it still runs wherever a page renders: on page routes and on the 404 page of any path.
Deno.test("the page session runs on pages and on an unknown page's 404, not on the API", async () => {
  await using t = await testApp();
  const user = await createUser(t.deps, { email: "chain@example.test" });
  const cookie = sessionCookie(user.token, user.email);
  for (const path of ["/", "/no-such-page", "/movies/abc"]) {
    const res = await t.request(path, { headers: { cookie } });
    assert.match(await res.text(), /chain@example\.test/, `${path} renders signed in`);
  }
  // A cookie never authenticates the API (docs/website.md).
  const api = await t.request("/api/watched", { headers: { cookie } });
  assert.equal(api.status, 401);
  await api.body?.cancel();
});

Deno.test("the method gate answers from one lookup: 405 with Allow before a folder's 401, 404 for unknown /api paths", async () => {
  await using t = await testApp();
  const cases: [string, string, number, string | null][] = [
    ["DELETE", "/api/movies/5", 405, "GET"],
    ["POST", "/api/recommend", 405, "GET"],
    ["PUT", "/api/recommend/quota", 405, "GET"],
    ["GET", "/api/movies/5/nope", 404, null],
    ["GET", "/api/nope", 404, null],
    // Unknown paths under folders whose middleware would answer 401 or 429 first.
    ["GET", "/api/recommend/nope", 404, null],
    ["GET", "/api/admin/nope", 404, null],
    ["POST", "/api/admin/nope", 404, null],
  ];
  for (const [method, path, status, allow] of cases) {
    const res = await t.request(path, { method });
    assert.equal(res.status, status, `${method} ${path}`);
    assert.equal(res.headers.get("allow"), allow, `${method} ${path}`);
    assert.match(res.headers.get("content-type") ?? "", /problem\+json/);
    await res.body?.cancel();
  }
});
