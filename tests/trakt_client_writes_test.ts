/**
 * The real Trakt client, unmodified (the npm package `trakt.tv` 8.2.0, its `api_url` set to the
 * test server's /trakt, signed in with a personal access token): scrobble start, pause and stop,
 * the playback points and the watching state, history, ratings and watchlist add, get and remove
 * (docs/trakt.md, "Writes and scrobbles"). Both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { signedInTraktClient } from "./helpers/trakt_client.ts";
import { createUser } from "./helpers/users.ts";

const ALIEN = 990_303_348; // ids of this file only
const HEAT = 990_303_949;

/** The status of a call the client rejects (got's HTTPError carries the response). */
async function rejected(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { statusCode: number; body: string } }).response;
    if (response) return { status: response.statusCode, body: JSON.parse(response.body) };
    throw error;
  }
  throw new Error("the call was not refused");
}

type Item = { movie: { ids: { tmdb: number } } } & Record<string, unknown>;
const tmdbIds = (items: Item[]) => items.map((i) => i.movie.ids.tmdb);

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  t.clock.set("2026-12-06T20:00:00.000Z");
  await t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
    [ALIEN, HEAT],
  ]);
  await t.deps.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details, imdb_id)
     values ($1, 'Alienation Probe Client', 'Alienation Probe Client', 1979, 117, '{}', '/a.jpg', true, null),
            ($2, 'Heat Haze Client', 'Heat Haze Client', 1995, 170, '{}', '/h.jpg', true, null)`,
    [ALIEN, HEAT],
  );
  const u = await createUser(t.deps);
  const client = await signedInTraktClient(t, u.id);
  return {
    t,
    u,
    trakt: client.trakt,
    async [Symbol.asyncDispose]() {
      await client[Symbol.asyncDispose]();
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] trakt.tv 8.2.0 scrobbles a movie: start at 0 (a field the client drops), pause with a playback point, stop logs one viewing; a second stop is refused 409`, async () => {
    await using w = await world(engine);
    const { trakt } = w;
    const movie = { title: "Alienation Probe Client", year: 1979, ids: { tmdb: ALIEN } };
    const start = await trakt.scrobble.start({ movie, progress: 0, app_version: "1.0" });
    assert.deepEqual([start.action, start.progress, start.movie.ids.tmdb], ["start", 0, ALIEN]);
    const watching = await trakt.users.watching({ username: "me" });
    assert.deepEqual([watching.action, watching.movie.ids.slug], [
      "scrobble",
      "alienation-probe-client-1979",
    ]);
    const pause = await trakt.scrobble.pause({ movie, progress: 40 });
    assert.equal(pause.action, "pause");
    const points = await trakt.sync.playback.get({ type: "movies" });
    assert.deepEqual(points.map((p: { progress: number }) => p.progress), [40]);
    const stop = await trakt.scrobble.stop({ movie, progress: 92.5 });
    assert.deepEqual([stop.action, stop.progress], ["scrobble", 92.5]);
    assert.deepEqual(await trakt.sync.playback.get({ type: "movies" }), []);
    const again = await rejected(trakt.scrobble.stop({ movie, progress: 100 }));
    assert.equal(again.status, 409);
    assert.equal((again.body as { watched_at: string }).watched_at, "2026-12-06T20:00:00.000Z");
    const history = await trakt.sync.history.get({ type: "movies" });
    assert.deepEqual(
      history.map((h: Item) => [h.action, h.movie.ids.tmdb]),
      [["scrobble", ALIEN]],
    );
  });

  Deno.test(`[${engine}] trakt.tv 8.2.0 adds, reads and removes history, ratings and watchlist items`, async () => {
    await using w = await world(engine);
    const { trakt } = w;
    const added = await trakt.sync.history.add({
      movies: [{ ids: { tmdb: HEAT }, watched_at: "2026-12-01T21:00:00.000Z" }],
      shows: [{ ids: { tvdb: 81189 } }],
    });
    assert.deepEqual(added.added, { movies: 1, episodes: 0 });
    assert.deepEqual(added.not_found.shows, [{ ids: { tvdb: 81189 } }]);
    const history = await trakt.sync.history.get({ type: "movies" });
    assert.deepEqual(tmdbIds(history), [HEAT]);

    const rated = await trakt.sync.ratings.add({ movies: [{ ids: { tmdb: HEAT }, rating: 7 }] });
    assert.equal(rated.added.movies, 1);
    const ratings = await trakt.sync.ratings.get({ type: "movies" });
    assert.deepEqual(ratings.map((r: Item) => [r.rating, r.movie.ids.tmdb]), [[7, HEAT]]);

    const listed = await trakt.sync.watchlist.add({
      movies: [{ ids: { tmdb: ALIEN } }, { ids: { tmdb: HEAT } }],
    });
    assert.equal(listed.added.movies, 1);
    assert.deepEqual(listed.not_added.movies, [{ ids: { tmdb: HEAT }, reason: "watched" }]);
    assert.deepEqual(tmdbIds(await trakt.sync.watchlist.get({ type: "movies" })), [ALIEN]);

    const unlisted = await trakt.sync.watchlist.remove({ movies: [{ ids: { tmdb: ALIEN } }] });
    assert.equal(unlisted.deleted.movies, 1);
    assert.deepEqual(await trakt.sync.watchlist.get({ type: "movies" }), []);
    const unrated = await trakt.sync.ratings.remove({ movies: [{ ids: { tmdb: HEAT } }] });
    assert.equal(unrated.deleted.movies, 1);
    assert.deepEqual(await trakt.sync.ratings.get({ type: "movies" }), []);
    const removed = await trakt.sync.history.remove({ ids: [history[0].id] });
    assert.deepEqual(removed.deleted, { movies: 1, episodes: 0 });
    assert.deepEqual(await trakt.sync.history.get({ type: "movies" }), []);
  });
}
