/**
 * The other apps on the website (docs/trakt.md, "Other apps"): /account/connections shows the
 * My List feed URL and the saved Seerr's URL (never its key), and the Request button is on the
 * movie page, My List's cards and the recommendation cards only once a Seerr is saved.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { providersEnv } from "./helpers/fake_ai.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

const KEY = "seerr-key-never-on-a-page-0123456789";

async function page(t: TestApp, u: TestUser, path: string) {
  const res = await get(t, path, { headers: { cookie: sessionCookie(u.token, u.email) } });
  assert.equal(res.status, 200, path);
  assert.ok(!res.html.includes(KEY), `the key is on ${path}`);
  return islandsOf(res.html);
}

const island = (islands: { name: string; props: Record<string, unknown> }[], name: string) =>
  islands.find((i) => i.name === name);

Deno.test("the Request button shows on the movie page, My List and recommendations only once a Seerr is saved; /account/connections shows the feed and the Seerr URL, never the key", async () => {
  await using tmdb = await startFakeTmdb();
  // A provider is configured (never called here): the AI's picks carry the Request button too.
  const ai = providersEnv([{ name: "fake", baseUrl: "http://127.0.0.1:9" }]);
  await using t = await testApp({
    env: { ...tmdbEnv(tmdb), ...ai, SITE_URL: "https://movies.example" },
  });
  const watcher = await createUser(t.deps);
  const u = await createUser(t.deps);
  await seedHistory(t.store, { watcher: watcher.id, saver: u.id });

  const before = await page(t, u, "/account/connections");
  const apps = island(before, "OtherApps");
  assert.match(
    String(apps?.props.feedUrl),
    /^https:\/\/movies\.example\/feeds\/[A-Za-z0-9_-]{22}\/mylist\.json$/,
  );
  assert.deepEqual(apps?.props.seerr, { url: null, savedAt: null });
  assert.equal(island(await page(t, u, "/movies/550"), "SeerrRequest"), undefined);
  assert.equal(island(await page(t, u, "/mylist"), "ListGrid")?.props.seerr, false);
  assert.equal(island(await page(t, u, "/recommendations"), "Recommendations")?.props.seerr, false);

  const saved = await t.request("/api/me/seerr", {
    method: "PUT",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ url: "https://seerr.example", apiKey: KEY }),
  });
  assert.equal(saved.status, 200);
  await saved.body?.cancel();

  const after = await page(t, u, "/account/connections");
  assert.equal(
    (island(after, "OtherApps")?.props.seerr as { url: string }).url,
    "https://seerr.example",
  );
  const button = island(await page(t, u, "/movies/550"), "SeerrRequest")?.props;
  assert.equal(button?.catalogId, 550);
  assert.equal(typeof button?.title, "string");
  assert.equal(island(await page(t, u, "/mylist"), "ListGrid")?.props.seerr, true);
  assert.equal(island(await page(t, u, "/recommendations"), "Recommendations")?.props.seerr, true);
  // Someone else's pages do not follow this user's Seerr.
  assert.equal(island(await page(t, watcher, "/movies/550"), "SeerrRequest"), undefined);
});
