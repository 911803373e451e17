/**
 * A webhook naming a TMDB id while TMDB is down (docs/connections.md): the viewing is logged
 * under the server's id, `unconfirmed`; a later event of the owner settles it once TMDB answers.
 * TMDB's 404 takes back what the webhook made (the viewing, the watched row) and the event reads
 * `unmatched` `not_found`; a film TMDB knows gets its details (the card fills in).
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { hookPath, jsonPost } from "./helpers/webhooks.ts";

type T = Awaited<ReturnType<typeof testApp>>;

const GHOST = 999_999_901;
const REAL = 6978;

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  tmdb.movies.set(
    REAL,
    detailBody(REAL, { title: "Big Trouble in Little China", release_date: "1986-07-02" }),
  );
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  await t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
    [GHOST, REAL],
  ]);
  t.clock.set("2026-11-28T20:00:00.000Z");
  const u = await createUser(t.deps);
  return {
    t,
    tmdb,
    u,
    hook: await hookPath(t, u),
    /** TMDB answers every detail with a 503 until `up()`. */
    down() {
      tmdb.override = (req) =>
        req.path.startsWith("/movie/") ? new Response("down", { status: 503 }) : undefined;
    },
    up() {
      tmdb.override = undefined;
    },
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

async function send(t: T, path: string, init: RequestInit) {
  const res = await t.request(path, init);
  return { status: res.status, body: await res.json() };
}

async function events(t: T, u: TestUser) {
  const res = await t.request("/api/me/connections/events", { headers: u.headers });
  return ((await res.json()).events as Record<string, unknown>[])
    .map((e) => [e.event, e.result, e.reason, e.catalogId]);
}

async function diary(t: T, u: TestUser) {
  const res = await t.request("/api/diary", { headers: u.headers });
  return ((await res.json()).entries as { catalogId: number; title: string }[])
    .map((e) => [e.catalogId, e.title]);
}

async function watchedIds(t: T, u: TestUser) {
  const res = await t.request("/api/watched", { headers: u.headers });
  return ((await res.json()).movies as { catalogId: number }[]).map((m) => m.catalogId);
}

const IGNORED = jsonPost({ NotificationType: "SessionStart" });

for (const engine of ENGINES) {
  Deno.test(`[${engine}] an id logged while TMDB was down and then answered 404 is taken back at the next event: no viewing, no watched card, the event unmatched not_found`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    w.down();
    const logged = await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: GHOST, title: "Ghost" }));
    assert.deepEqual(logged.body, { result: "logged", reason: "unconfirmed" });
    assert.deepEqual(await diary(t, u), [[GHOST, ""]], "the blank card");
    assert.deepEqual(await watchedIds(t, u), [GHOST]);
    // Still down: the next event changes nothing.
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, IGNORED)).body.result, "ignored");
    assert.deepEqual(await watchedIds(t, u), [GHOST]);
    w.up();
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, IGNORED)).body, {
      result: "ignored",
      reason: "unsupported_event",
    });
    assert.ok(w.tmdb.requests.some((r) => r.path === `/movie/${GHOST}`));
    assert.deepEqual(await diary(t, u), []);
    assert.deepEqual(await watchedIds(t, u), []);
    assert.deepEqual(await events(t, u), [
      ["SessionStart", "ignored", "unsupported_event", null],
      ["SessionStart", "ignored", "unsupported_event", null],
      ["watched", "unmatched", "not_found", null],
    ]);
  });

  Deno.test(`[${engine}] an id logged while TMDB was down that TMDB knows is confirmed at the next event: its card fills in and the mark goes`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    w.down();
    const logged = await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: REAL }));
    assert.deepEqual(logged.body, { result: "logged", reason: "unconfirmed" });
    assert.deepEqual(await diary(t, u), [[REAL, ""]]);
    w.up();
    await send(t, `${w.hook}/jellyfin`, IGNORED);
    assert.deepEqual(await diary(t, u), [[REAL, "Big Trouble in Little China"]]);
    assert.deepEqual(await watchedIds(t, u), [REAL]);
    assert.deepEqual((await events(t, u)).at(-1), ["watched", "logged", null, REAL]);
  });

  Deno.test(`[${engine}] an unconfirmed event reads logged without the mark once anything else stored its movie (the details job, a visit)`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    w.down();
    await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: REAL }));
    assert.deepEqual((await events(t, u)).at(-1), ["watched", "logged", "unconfirmed", REAL]);
    w.up();
    await t.services.catalog.refreshMovie(REAL);
    assert.deepEqual((await events(t, u)).at(-1), ["watched", "logged", null, REAL]);
  });

  Deno.test(`[${engine}] taking back an unknown id keeps the watched row the person had before the webhook, and their own viewings`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    w.down();
    const manual = await t.request("/api/diary", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: GHOST, watchedOn: "2026-11-01" }),
    });
    assert.equal(manual.status, 201);
    await manual.body?.cancel();
    t.clock.advance(60_000);
    const logged = await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: GHOST }));
    assert.deepEqual(logged.body, { result: "logged", reason: "unconfirmed" });
    assert.equal((await diary(t, u)).length, 2);
    w.up();
    await send(t, `${w.hook}/jellyfin`, IGNORED);
    assert.deepEqual(await diary(t, u), [[GHOST, ""]], "the person's own viewing stays");
    assert.deepEqual(await watchedIds(t, u), [GHOST]);
    assert.deepEqual((await events(t, u)).at(-1), ["watched", "unmatched", "not_found", null]);
  });
}
