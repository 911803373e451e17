/**
 * The log never holds a credential that rides in a path (docs/api.md, "Request log"): a
 * webhook's secret, a share link's slug (page and API) or an invite's code is logged as its
 * route's parameter name, on the request line and on a 5xx's error line alike.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";
import { hookPath, jsonPost } from "./helpers/webhooks.ts";
import { loggedPath } from "@/lib/http/request_context.ts";

const ADMIN = { "x-admin-token": "log-admin-token" };

/** The log lines written since `from`, after asserting none holds `secret`. */
function linesSince(t: TestApp, from: number, secret: string) {
  const lines = t.logs.slice(from);
  assert.ok(lines.length > 0, "the request was logged");
  for (const line of lines) {
    assert.ok(!JSON.stringify(line).includes(secret), `${secret} in ${JSON.stringify(line)}`);
  }
  return lines as Record<string, unknown>[];
}

/** Sends a request and returns the paths of its log lines (checked free of `secret`). */
async function loggedPaths(t: TestApp, secret: string, path: string, init?: RequestInit) {
  const from = t.logs.length;
  const res = await t.request(path, init);
  await res.body?.cancel();
  return linesSince(t, from, secret).map((line) => `${line.status} ${line.path}`);
}

Deno.test("a webhook's secret is logged as :secret, known or not, on any receiver", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const hook = await hookPath(t, u);
  const secret = hook.split("/")[2];
  const event = jsonPost({ NotificationType: "SessionStart" });
  assert.deepEqual(await loggedPaths(t, secret, `${hook}/jellyfin`, event), [
    "200 /hooks/:secret/jellyfin",
  ]);
  assert.deepEqual(await loggedPaths(t, secret, `${hook}/kodi`, event), [
    "404 /hooks/:secret/kodi",
  ]);
  assert.deepEqual(await loggedPaths(t, secret, `${hook}/jellyfin`, { method: "POST" }), [
    "400 /hooks/:secret/jellyfin",
  ]);
  const guess = "AAAAAAAAAAAAAAAAAAAAAA";
  assert.deepEqual(await loggedPaths(t, guess, `/hooks/${guess}/plex`, event), [
    "404 /hooks/:secret/plex",
  ]);
  assert.deepEqual(await loggedPaths(t, secret, `${hook}/jellyfin`, { method: "GET" }), [
    "405 /hooks/:secret/jellyfin",
  ]);
});

Deno.test("a 5xx on a webhook writes its error line without the secret", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const hook = await hookPath(t, u);
  const secret = hook.split("/")[2];
  t.services.connections.receive = () => Promise.reject(new Error("the receiver broke"));
  const from = t.logs.length;
  const res = await t.request(`${hook}/generic`, jsonPost({ tmdbId: 550 }));
  assert.equal(res.status, 500);
  await res.body?.cancel();
  const lines = linesSince(t, from, secret);
  assert.deepEqual(lines.map((line) => [line.level, line.path]), [
    ["error", "/hooks/:secret/generic"],
    ["info", "/hooks/:secret/generic"],
  ]);
});

Deno.test("a share link's slug is logged as :slug on the page and on GET /api/shared/:slug", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const id = await makeList(t, u, { name: "Rainy Sunday" });
  const shared = await t.request(`/api/lists/${id}/share`, json(u, "POST"));
  const slug = new URL((await shared.json()).shareUrl).pathname.split("/")[2];
  assert.deepEqual(await loggedPaths(t, slug, `/s/${slug}`), ["200 /s/:slug"]);
  assert.deepEqual(await loggedPaths(t, slug, `/api/shared/${slug}?limit=1`), [
    "200 /api/shared/:slug",
  ]);
  await t.request(`/api/lists/${id}/share`, json(u, "DELETE"));
  assert.deepEqual(await loggedPaths(t, slug, `/api/shared/${slug}`), [
    "404 /api/shared/:slug",
  ]);
  assert.deepEqual(await loggedPaths(t, slug, `/s/${slug}`), ["404 /s/:slug"]);
});

Deno.test("an invite's code is logged as :code when the admin revokes it", async () => {
  await using t = await testApp({ env: { SIGNUP: "invite", ADMIN_TOKEN: ADMIN["x-admin-token"] } });
  const made = await t.request("/api/admin/invites", { method: "POST", headers: ADMIN });
  const { code } = await made.json();
  const revoke = { method: "DELETE", headers: ADMIN };
  assert.deepEqual(await loggedPaths(t, code, `/api/admin/invites/${code}`, revoke), [
    "204 /api/admin/invites/:code",
  ]);
});

Deno.test("loggedPath keeps every other path as it is and redacts odd spellings of the secret ones", () => {
  assert.equal(loggedPath("/api/movies/550"), "/api/movies/550");
  assert.equal(loggedPath("/u/cinephile"), "/u/cinephile");
  assert.equal(loggedPath("/hooks/"), "/hooks/");
  assert.equal(loggedPath("/shared/x"), "/shared/x");
  assert.equal(loggedPath("//hooks//abc/plex"), "//hooks//:secret/plex");
  assert.equal(loggedPath("/HOOKS/abc"), "/HOOKS/:secret");
  assert.equal(loggedPath("/s/abc/extra"), "/s/:slug/extra");
  assert.equal(loggedPath("/api/shared/abc"), "/api/shared/:slug");
});
