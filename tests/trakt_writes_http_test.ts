/**
 * Trakt's writes over HTTP (docs/trakt.md, "Writes and scrobbles"): Trakt's statuses (201 for
 * adds, 200 for removes, 204, 409 with its times, 412 for a body that is not JSON, 413 past 1,000
 * items, 422 for a bad value), and the effects everywhere else: a scrobbled film in /diary with
 * its source, a rating through /trakt on the watched card and in /api/stats, a watchlist add on
 * /mylist. Both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { sessionCookie } from "./helpers/web.ts";

const ALIEN = 990_302_348; // ids of this file only
const HEAT = 990_302_949;

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  t.clock.set("2026-12-06T20:00:00.000Z");
  await t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
    [ALIEN, HEAT],
  ]);
  await t.deps.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details)
     values ($1, 'Alienation Probe Web', 'Alienation Probe Web', 1979, 117, '{}', '/a.jpg', true),
            ($2, 'Heat Haze Web', 'Heat Haze Web', 1995, 170, '{}', '/h.jpg', true)`,
    [ALIEN, HEAT],
  );
  const u = await createUser(t.deps);
  const token = async (scope: "read" | "write") =>
    (await t.services.personalTokens.create(u.id, { name: `trakt ${scope}`, scope })).token;
  const write = await token("write");
  const headers = (bearer = write) => ({
    "trakt-api-key": "client-abc",
    "trakt-api-version": "2",
    "content-type": "application/json",
    authorization: `Bearer ${bearer}`,
  });
  const call = async (method: string, path: string, body?: unknown, bearer?: string) => {
    const res = await t.request(`/trakt${path}`, {
      method,
      headers: headers(bearer),
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  const api = async (path: string) => await (await t.request(path, { headers: u.headers })).json();
  const page = async (path: string) =>
    await (await t.request(path, { headers: { cookie: sessionCookie(u.token, u.email) } })).text();
  return {
    t,
    u,
    call,
    api,
    page,
    token,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /trakt/scrobble/stop at 80 % answers 201 action scrobble and the film is in /diary with source scrobble; a second stop answers 409 with watched_at and expires_at`, async () => {
    await using w = await world(engine);
    const movie = { title: "Alienation Probe Web", year: 1979, ids: { tmdb: ALIEN } };
    const start = await w.call("POST", "/scrobble/start", { movie, progress: 1.5 });
    assert.equal(start.status, 201);
    assert.deepEqual(
      { ...start.body, id: 0 },
      {
        id: 0,
        action: "start",
        progress: 1.5,
        sharing: { twitter: false, mastodon: false, tumblr: false },
        movie: {
          title: "Alienation Probe Web",
          year: 1979,
          ids: { trakt: ALIEN, slug: "alienation-probe-web-1979", imdb: null, tmdb: ALIEN },
        },
      },
    );
    const watching = await w.call("GET", "/users/me/watching");
    assert.equal(watching.status, 200);
    assert.deepEqual(Object.keys(watching.body), [
      "expires_at",
      "started_at",
      "action",
      "type",
      "movie",
    ]);
    const stop = await w.call("POST", "/scrobble/stop", { movie, progress: 80 });
    assert.deepEqual([stop.status, stop.body.action], [201, "scrobble"]);
    assert.equal((await w.call("GET", "/users/me/watching")).status, 204);
    const again = await w.call("POST", "/scrobble/stop", { movie, progress: 100 });
    assert.equal(again.status, 409);
    assert.deepEqual(
      [again.body.error, again.body.watched_at, again.body.expires_at],
      ["already_scrobbled", "2026-12-06T20:00:00.000Z", "2026-12-06T21:57:00.000Z"],
    );
    const diary = await w.api("/api/diary");
    assert.deepEqual(
      diary.entries.map((e: Record<string, unknown>) => [e.catalogId, e.title, e.source]),
      [[ALIEN, "Alienation Probe Web", "scrobble"]],
    );
    const diaryPage = await w.page("/diary");
    assert.match(diaryPage, /Alienation Probe Web/);
    assert.match(diaryPage, /<span class="muted">scrobbled<\/span>/);
  });

  Deno.test(`[${engine}] a rating through POST /trakt/sync/ratings is on the watched card and in /api/stats; POST /trakt/sync/ratings/remove answers 200 and takes it away`, async () => {
    await using w = await world(engine);
    await w.call("POST", "/sync/history", {
      movies: [{ ids: { tmdb: HEAT }, watched_at: "2026-12-01T21:00:00.000Z" }],
    });
    const rated = await w.call("POST", "/sync/ratings", {
      movies: [{ ids: { tmdb: HEAT }, rating: 8 }],
    });
    assert.deepEqual([rated.status, rated.body.added.movies], [201, 1]);
    const watched = await w.api("/api/watched?include=entry");
    assert.deepEqual(
      watched.movies.map((m: Record<string, unknown>) => [
        m.catalogId,
        (m.entry as { rating: number | null }).rating,
      ]),
      [[HEAT, 8]],
    );
    const stats = await w.api("/api/stats");
    assert.deepEqual([stats.ratings.count, stats.ratings.average], [1, 8]);
    const removed = await w.call("POST", "/sync/ratings/remove", {
      movies: [{ ids: { tmdb: HEAT } }],
    });
    assert.deepEqual([removed.status, removed.body.deleted.movies], [200, 1]);
    assert.equal((await w.api("/api/stats")).ratings.count, 0);
  });

  Deno.test(`[${engine}] POST /trakt/sync/watchlist puts a film on /mylist and lists a watched one under not_added with reason watched`, async () => {
    await using w = await world(engine);
    await w.call("POST", "/sync/history", { movies: [{ ids: { tmdb: HEAT } }] });
    const added = await w.call("POST", "/sync/watchlist", {
      movies: [{ ids: { tmdb: ALIEN } }, { ids: { tmdb: HEAT } }],
      shows: [{ ids: { tvdb: 81189 } }],
    });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body.added, { movies: 1, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(added.body.not_added, {
      movies: [{ ids: { tmdb: HEAT }, reason: "watched" }],
    });
    assert.deepEqual(added.body.not_found.shows, [{ ids: { tvdb: 81189 } }]);
    assert.deepEqual(added.body.list, { updated_at: added.body.list.updated_at, item_count: 1 });
    const mine = await w.api("/api/mylist");
    assert.deepEqual(mine.movies.map((m: Record<string, unknown>) => m.catalogId), [ALIEN]);
    assert.match(await w.page("/mylist"), /Alienation Probe Web/);
    const removed = await w.call("POST", "/sync/watchlist/remove", {
      movies: [{ ids: { tmdb: ALIEN } }],
    });
    assert.deepEqual([removed.status, removed.body.deleted.movies], [200, 1]);
  });

  Deno.test(`[${engine}] POST /trakt/sync/history answers 201 and /trakt/sync/history/remove 200 with Trakt's keys; bad bodies answer 412, 413 past 1,000 items, 422 for a bad value`, async () => {
    await using w = await world(engine);
    const added = await w.call("POST", "/sync/history", {
      movies: [{ ids: { tmdb: ALIEN } }, { ids: { imdb: "tt0000001" } }],
      episodes: [{ ids: { tvdb: 1 } }],
    });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body, {
      added: { movies: 1, episodes: 0 },
      not_found: {
        movies: [{ ids: { imdb: "tt0000001" } }],
        shows: [],
        seasons: [],
        episodes: [{ ids: { tvdb: 1 } }],
      },
    });
    const notJson = await w.call("POST", "/sync/history", "movies=1");
    assert.deepEqual([notJson.status, notJson.body.error], [412, "invalid_body"]);
    const items = (n: number) => Array.from({ length: n }, () => ({ ids: { tmdb: ALIEN } }));
    const tooMany = await w.call("POST", "/sync/history/remove", { movies: items(1001) });
    assert.deepEqual([tooMany.status, tooMany.body.error], [413, "too_many_items"]);
    const atLimit = await w.call("POST", "/sync/history/remove", { movies: items(1000) });
    assert.deepEqual([atLimit.status, atLimit.body.deleted], [200, { movies: 1, episodes: 0 }]);
    const bad = await w.call("POST", "/sync/ratings", {
      movies: [{ ids: { tmdb: ALIEN }, rating: 11 }],
    });
    assert.deepEqual([bad.status, bad.body.error], [422, "invalid_rating"]);
    const read = await w.token("read");
    const refused = await w.call("POST", "/sync/history", { movies: [] }, read);
    assert.equal(refused.status, 403);
  });

  Deno.test(`[${engine}] POST /trakt/checkin answers 201, 409 with expires_at while it runs; DELETE /trakt/checkin 204; a paused film's point is in GET /trakt/sync/playback/movies and DELETE /trakt/sync/playback/:id answers 204, then 404`, async () => {
    await using w = await world(engine);
    const checkin = await w.call("POST", "/checkin", { movie: { ids: { tmdb: ALIEN } } });
    assert.deepEqual([checkin.status, checkin.body.watched_at], [201, "2026-12-06T20:00:00.000Z"]);
    const busy = await w.call("POST", "/checkin", { movie: { ids: { tmdb: HEAT } } });
    assert.deepEqual([busy.status, busy.body.expires_at], [409, "2026-12-06T21:57:00.000Z"]);
    assert.equal((await w.call("DELETE", "/checkin")).status, 204);
    assert.equal((await w.call("GET", "/users/me/watching")).status, 204);
    await w.call("POST", "/scrobble/pause", { movie: { ids: { tmdb: HEAT } }, progress: 33 });
    const points = await w.call("GET", "/sync/playback/movies");
    assert.equal(points.status, 200);
    assert.deepEqual(points.body.map((p: Record<string, unknown>) => [p.progress, p.type]), [
      [33, "movie"],
    ]);
    const id = points.body[0].id;
    assert.equal((await w.call("DELETE", `/sync/playback/${id}`)).status, 204);
    assert.equal((await w.call("DELETE", `/sync/playback/${id}`)).status, 404);
    assert.equal((await w.call("GET", "/users/someone-else/watching")).status, 404);
  });

  Deno.test(`[${engine}] a check-in whose runtime has passed is in GET /trakt/sync/history/movies with action checkin at the client's next call, a read; a minute before it is not`, async () => {
    await using w = await world(engine);
    await w.call("POST", "/checkin", { movie: { ids: { tmdb: HEAT } } });
    w.t.clock.advance(169 * 60_000);
    assert.deepEqual((await w.call("GET", "/sync/history/movies")).body, []);
    w.t.clock.advance(60_000);
    const history = await w.call("GET", "/sync/history/movies");
    assert.deepEqual(
      history.body.map((
        h: Record<string, unknown>,
      ) => [h.action, (h.movie as { ids: { tmdb: number } }).ids.tmdb]),
      [["checkin", HEAT]],
    );
  });

  Deno.test(`[${engine}] a /trakt write body of exactly 1 MiB is read, one byte more answers 413 body_too_large`, async () => {
    await using w = await world(engine);
    const json = JSON.stringify({ movies: [{ ids: { tmdb: ALIEN } }] });
    const padded = (size: number) =>
      json + " ".repeat(size - new TextEncoder().encode(json).length);
    const at = await w.call("POST", "/sync/watchlist", padded(1024 * 1024));
    assert.deepEqual([at.status, at.body.added.movies], [201, 1]);
    const over = await w.call("POST", "/sync/watchlist", padded(1024 * 1024 + 1));
    assert.deepEqual([over.status, over.body.error], [413, "body_too_large"]);
  });
}
