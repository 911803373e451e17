/**
 * "Rate what you watched" and a media server's viewing (docs/diary.md, "The summary"): the home
 * page's queue rates the watched entry when it knew no viewing, and a webhook may have logged one
 * since; the rating must reach that viewing too, not only the film.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { hookPath, payloads, plexForm } from "./helpers/webhooks.ts";

type T = Awaited<ReturnType<typeof testApp>>;
const FILM = 6978;

async function json(t: T, u: TestUser, path: string, init: RequestInit = {}) {
  const res = await t.request(path, {
    ...init,
    headers: { ...u.headers, "content-type": "application/json" },
  });
  assert.ok(res.ok, `${path}: ${res.status}`);
  return await res.json();
}

const diary = async (t: T, u: TestUser) =>
  (await json(t, u, "/api/diary")).entries as {
    id: string;
    catalogId: number;
    source: string;
    rating: number | null;
  }[];

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a rating from "Rate what you watched" without a viewing id reaches the viewing a webhook logged since`, async () => {
    await using tmdb = await startFakeTmdb();
    tmdb.movies.set(FILM, detailBody(FILM, { title: "Big Trouble in Little China" }));
    await using t = await testApp({ engine, env: tmdbEnv(tmdb) });
    t.clock.set("2026-11-28T20:00:00.000Z");
    const u = await createUser(t.deps);

    // Watched long ago, never logged: the home page's queue has it without a viewing.
    await json(t, u, "/api/watched", {
      method: "POST",
      body: JSON.stringify({ catalogId: FILM, watchedOn: "2020-05-01" }),
    });
    const [queued] = (await json(t, u, "/api/diary/unrated")).movies;
    assert.deepEqual([queued.catalogId, queued.viewingId], [FILM, null]);

    // Tonight's rewatch on Plex logs a viewing while the page stays open.
    const hook = await t.request(`${await hookPath(t, u)}/plex`, plexForm(payloads.plexScrobble()));
    assert.deepEqual(await hook.json(), { result: "logged" });
    const [logged] = await diary(t, u);
    assert.deepEqual([logged.catalogId, logged.source, logged.rating], [FILM, "webhook", null]);

    // The page rates the watched entry, as it does without a viewing id.
    const patched = await json(t, u, `/api/watched/${FILM}`, {
      method: "PATCH",
      body: JSON.stringify({ rating: 8 }),
    });
    assert.equal(patched.entry.rating, 8);
    const [rated] = await diary(t, u);
    assert.deepEqual([rated.id, rated.rating], [logged.id, 8]);
    assert.deepEqual((await json(t, u, "/api/diary/unrated")).movies, []);

    // Cleared the same way; a PATCH of the date or note alone leaves the viewing's rating.
    await json(t, u, `/api/watched/${FILM}`, {
      method: "PATCH",
      body: JSON.stringify({ rating: 6 }),
    });
    await json(t, u, `/api/watched/${FILM}`, {
      method: "PATCH",
      body: JSON.stringify({ note: "Still great." }),
    });
    assert.equal((await diary(t, u))[0].rating, 6);
    await json(t, u, `/api/watched/${FILM}`, {
      method: "PATCH",
      body: JSON.stringify({ rating: null }),
    });
    assert.equal((await diary(t, u))[0].rating, null);
  });

  Deno.test(`[${engine}] a rating of the watched entry goes to its latest viewing only, earlier viewings keep theirs`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-28T20:00:00.000Z");
    const u = await createUser(t.deps);
    for (const [watchedOn, rating] of [["2025-01-10", 4], ["2026-11-20", null]] as const) {
      await json(t, u, "/api/diary", {
        method: "POST",
        body: JSON.stringify({ catalogId: FILM, watchedOn, rating }),
      });
    }
    await json(t, u, `/api/watched/${FILM}`, {
      method: "PATCH",
      body: JSON.stringify({ rating: 9 }),
    });
    const entries = await diary(t, u);
    assert.deepEqual(entries.map((e) => e.rating), [9, 4]);
    assert.equal((await json(t, u, `/api/watched/${FILM}`)).entry.rating, 9);
  });
}
