/**
 * "Watching now" (docs/trakt.md, "Other apps"): a film a Trakt client scrobbles shows on the
 * user's home page with its progress and end, and on their public profile while it is public;
 * it is gone once its runtime has passed, after a stop, and for anyone else's home page.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { parseHtml } from "./helpers/dom.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { get, sessionCookie } from "./helpers/web.ts";
import type { TestApp } from "./helpers/app.ts";

const FILM = 2_147_000_101;

/** The "Watching now" section of `path` as `u` sees it: heading, link and bar, or null. */
async function watchingOn(t: TestApp, u: TestUser | null, path: string) {
  const init = u ? { headers: { cookie: sessionCookie(u.token, u.email) } } : undefined;
  const { status, html } = await get(t, path, init);
  assert.equal(status, 200, path);
  const section = parseHtml(html).querySelector(".watching-now");
  if (!section) return null;
  return {
    heading: section.querySelector("h2")?.textContent,
    link: section.querySelector("a")?.getAttribute("href"),
    text: section.querySelector("p")?.textContent,
    progress: section.querySelector("progress")?.getAttribute("value"),
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a scrobbled film shows as Watching now with its progress on the home page and the public profile, until its runtime has passed`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-12-06T20:00:00.000Z");
    await t.store.query(`delete from public.movies where catalog_id = $1`, [FILM]);
    await t.store.query(
      `insert into public.movies (catalog_id, title, original_title, year, runtime, has_details)
       values ($1, 'Watching Probe', 'Watching Probe', 1999, 100, true)`,
      [FILM],
    );
    const u = await createUser(t.deps);
    const other = await createUser(t.deps);
    // Unique per run: the PostgreSQL test database is shared.
    const handle = `watcher_${crypto.randomUUID().slice(0, 8)}`;
    const { token } = await t.services.personalTokens.create(u.id, {
      name: "player",
      scope: "write",
    });
    const trakt = (path: string, body: unknown) =>
      t.request(`/trakt${path}`, {
        method: "POST",
        headers: {
          "trakt-api-key": "player-client",
          "trakt-api-version": "2",
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      });
    const profile = await t.request("/api/me/profile", {
      method: "PUT",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ handle, displayName: "Anna", public: true }),
    });
    assert.equal(profile.status, 200);
    await profile.body?.cancel();

    assert.equal(await watchingOn(t, u, "/"), null);
    const started = await trakt("/scrobble/start", {
      movie: { ids: { tmdb: FILM } },
      progress: 10,
    });
    assert.equal(started.status, 201);
    await started.body?.cancel();
    // 10 % in at the start, 20 minutes later 30 % (100 minutes of runtime).
    t.clock.advance(20 * 60_000);
    assert.deepEqual(await watchingOn(t, u, "/"), {
      heading: "Watching now",
      link: `/movies/${FILM}`,
      text: "Watching Probe (1999)",
      progress: "30",
    });
    assert.deepEqual(await watchingOn(t, null, `/u/${handle}`), {
      heading: "Anna is watching",
      link: `/movies/${FILM}`,
      text: "Watching Probe (1999)",
      progress: "30",
    });
    // Nobody else's home page shows it.
    assert.equal(await watchingOn(t, other, "/"), null);

    // A private profile is no page at all; public again, it shows again.
    const hide = await t.request("/api/me/profile", {
      method: "PUT",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ handle, displayName: "Anna", public: false }),
    });
    await hide.body?.cancel();
    assert.equal((await get(t, `/u/${handle}`)).status, 404);
    assert.equal(await t.services.watchingNow.onProfile(handle), null);

    // The start was 10 % in: it ends 90 minutes after it (the stored end). Read on the service:
    // the test session's token has expired by then.
    const { expiresAt } = (await t.services.watchingNow.mine(u.id))!;
    assert.equal(expiresAt, "2026-12-06T21:30:00.000Z");
    t.clock.set(new Date(Date.parse(expiresAt) - 1).toISOString());
    assert.equal((await t.services.watchingNow.mine(u.id))?.catalogId, FILM);
    t.clock.set(expiresAt);
    assert.equal(await t.services.watchingNow.mine(u.id), null);
  });
}

Deno.test("a scrobble stopped at 80 % is no longer watching now", async () => {
  await using t = await testApp();
  t.clock.set("2026-12-06T20:00:00.000Z");
  await t.store.query(`delete from public.movies where catalog_id = $1`, [FILM]);
  await t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, has_details)
     values ($1, 'Watching Probe', 'Watching Probe', 1999, 100, true)`,
    [FILM],
  );
  const u = await createUser(t.deps);
  const { token } = await t.services.personalTokens.create(u.id, {
    name: "player",
    scope: "write",
  });
  const send = (path: string, progress: number) =>
    t.request(`/trakt${path}`, {
      method: "POST",
      headers: {
        "trakt-api-key": "player-client",
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ movie: { ids: { tmdb: FILM } }, progress }),
    });
  await (await send("/scrobble/start", 50)).body?.cancel();
  assert.equal((await t.services.watchingNow.mine(u.id))?.catalogId, FILM);
  const stop = await send("/scrobble/stop", 85);
  assert.equal(stop.status, 201);
  await stop.body?.cancel();
  assert.equal(await t.services.watchingNow.mine(u.id), null);
  assert.equal(await watchingOn(t, u, "/"), null);
});
