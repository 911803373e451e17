/**
 * My List as a feed for Radarr's "Custom Lists" import (docs/trakt.md, "Other apps"):
 * `GET /feeds/:secret/mylist.json` answers the JSON array Radarr's RadarrListParser reads (items
 * with `id` > 0, the TMDB id), the secret shows on GET /api/me/connections as `feedUrl` and
 * rotates, unknown secrets are 404 and limited per address, and the log never holds a secret.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import type { TestApp } from "./helpers/app.ts";

async function feedPath(t: TestApp, u: TestUser): Promise<string> {
  const res = await t.request("/api/me/connections", { headers: u.headers });
  assert.equal(res.status, 200);
  return new URL((await res.json()).feedUrl).pathname;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /feeds/:secret/mylist.json answers My List in its order as Radarr's Custom Lists read it`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: "https://movies.example" } });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    const path = await feedPath(t, saver);
    assert.match(path, /^\/feeds\/[A-Za-z0-9_-]{22}\/mylist\.json$/);
    // No session, no token: the secret alone.
    const res = await t.request(path);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(res.headers.get("cache-control"), "private, no-store");
    const feed = await res.json();
    // A film without a stored row still has its TMDB id, which is all Radarr reads (the shared
    // PostgreSQL test database may hold a row for it: only its id is pinned).
    assert.equal(feed[2].id, 5);
    if (engine === "embedded") assert.deepEqual(feed[2], { id: 5, title: "", year: null });
    assert.deepEqual([...feed.slice(0, 2), ...feed.slice(3)], [
      { id: 3, title: "Zodiac", year: 2007 },
      { id: 1, title: "Amélie", year: 2001 },
      { id: 2, title: "alien", year: 1979 },
      { id: 4, title: "Light Row", year: 2010 },
      { id: 7, title: "Éclair", year: null },
    ]);
    // A My List the website changes is what the next read answers.
    const removed = await t.request("/api/mylist", {
      method: "DELETE",
      headers: { ...saver.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 3 }),
    });
    assert.equal(removed.status, 200);
    await removed.body?.cancel();
    const after = await (await t.request(path)).json();
    assert.deepEqual(after.map((m: { id: number }) => m.id), [1, 5, 2, 4, 7]);
    // Someone with an empty My List (no row at all) reads an empty array, not a 404.
    const empty = await feedPath(t, watcher);
    assert.deepEqual(await (await t.request(empty)).json(), []);
  });

  Deno.test(`[${engine}] POST /api/me/connections/feed/rotate gives a new feed URL; the old one is 404 at once and the webhook stays`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const before = await (await t.request("/api/me/connections", { headers: u.headers })).json();
    const rotated = await t.request("/api/me/connections/feed/rotate", {
      method: "POST",
      headers: u.headers,
    });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers.get("cache-control"), "no-store");
    const { feedUrl } = await rotated.json();
    assert.notEqual(feedUrl, before.feedUrl);
    await problem(await t.request(new URL(before.feedUrl).pathname), 404, "not_found");
    assert.equal((await t.request(new URL(feedUrl).pathname)).status, 200);
    const after = await (await t.request("/api/me/connections", { headers: u.headers })).json();
    assert.deepEqual(after, { ...before, feedUrl });
    // The webhook's rotation leaves the feed alone, too.
    const hooked = await t.request("/api/me/connections/rotate", {
      method: "POST",
      headers: u.headers,
    });
    assert.notEqual((await hooked.json()).webhookUrl, before.webhookUrl);
    assert.equal((await t.request(new URL(feedUrl).pathname)).status, 200);
    // The secret is kept beside its SHA-256, the lookup key.
    const [row] = await t.store.query<{ feed_secret: string; feed_secret_hash: string }>(
      "select feed_secret, feed_secret_hash from public.user_connections where user_id = $1",
      [u.id],
    );
    assert.equal(row.feed_secret, feedUrl.split("/").at(-2));
    assert.match(row.feed_secret_hash, /^[0-9a-f]{64}$/);
  });

  Deno.test(`[${engine}] a row from before the feed gets its feed secret on the owner's next read`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const first = await (await t.request("/api/me/connections", { headers: u.headers })).json();
    await t.store.query(
      "update public.user_connections set feed_secret = null, feed_secret_hash = null where user_id = $1",
      [u.id],
    );
    const again = await (await t.request("/api/me/connections", { headers: u.headers })).json();
    assert.equal(again.webhookUrl, first.webhookUrl);
    assert.match(again.feedUrl, /\/feeds\/[A-Za-z0-9_-]{22}\/mylist\.json$/);
    assert.notEqual(again.feedUrl, first.feedUrl);
    assert.equal((await t.request(new URL(again.feedUrl).pathname)).status, 200);
  });
}

Deno.test("a personal access token cannot rotate the feed", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const made = await (await t.request("/api/tokens", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "script", scope: "write" }),
  })).json();
  await problem(
    await t.request("/api/me/connections/feed/rotate", {
      method: "POST",
      headers: { authorization: `Bearer ${made.token}` },
    }),
    403,
    "personal_token_not_allowed",
  );
  await problem(
    await t.request("/api/me/connections/feed/rotate", { method: "POST" }),
    401,
    "unauthorized",
  );
});

Deno.test("an address naming unknown feed secrets gets 404 twenty times a minute, then 429 for any secret until the minute ends", async () => {
  await using t = await testApp({ env: { CLIENT_IP_HEADER: "x-client-ip" } });
  const u = await createUser(t.deps);
  const path = await feedPath(t, u);
  const from = { headers: { "x-client-ip": "203.0.113.9" } };
  const other = { headers: { "x-client-ip": "203.0.113.10" } };
  for (let i = 0; i < 20; i++) {
    await problem(
      await t.request(`/feeds/unknown-secret-${i}/mylist.json`, from),
      404,
      "not_found",
    );
  }
  const refused = await t.request(path, from);
  await problem(refused, 429, "rate_limited");
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  assert.equal((await t.request(path, other)).status, 200);
  t.clock.advance(60_000);
  assert.equal((await t.request(path, from)).status, 200);
});

Deno.test("both feeds share one count of unknown secrets per address: ten guesses on each make the calendar's next read 429", async () => {
  await using t = await testApp({ env: { CLIENT_IP_HEADER: "x-client-ip" } });
  const u = await createUser(t.deps);
  const calendar = (await feedPath(t, u)).replace(/mylist\.json$/, "calendar.ics");
  const from = { headers: { "x-client-ip": "203.0.113.9" } };
  for (let i = 0; i < 10; i++) {
    for (const file of ["mylist.json", "calendar.ics"]) {
      await problem(await t.request(`/feeds/unknown-${i}/${file}`, from), 404, "not_found");
    }
  }
  await problem(await t.request(calendar, from), 429, "rate_limited");
});

Deno.test("one feed answers 60 reads a minute, the 61st is 429 with Retry-After", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const path = await feedPath(t, u);
  for (let i = 0; i < 60; i++) {
    const res = await t.request(path);
    assert.equal(res.status, 200, `read ${i + 1}`);
    await res.body?.cancel();
  }
  const over = await t.request(path);
  await problem(over, 429, "rate_limited");
  assert.ok(Number(over.headers.get("retry-after")) >= 1);
});

Deno.test("a feed's secret is logged as :secret, known or not", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const path = await feedPath(t, u);
  const secret = path.split("/")[2];
  const from = t.logs.length;
  await (await t.request(path)).body?.cancel();
  await (await t.request("/feeds/AAAAAAAAAAAAAAAAAAAAAA/mylist.json")).body?.cancel();
  const lines = t.logs.slice(from) as Record<string, unknown>[];
  for (const line of lines) assert.ok(!JSON.stringify(line).includes(secret));
  assert.deepEqual(lines.map((l) => `${l.status} ${l.path}`), [
    "200 /feeds/:secret/mylist.json",
    "404 /feeds/:secret/mylist.json",
  ]);
});
