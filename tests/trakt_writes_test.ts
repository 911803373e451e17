/**
 * Trakt's writes without HTTP (docs/trakt.md, "Writes and scrobbles"): ids resolve by TMDB id
 * (through the window when not stored), trakt id, stored IMDb id, slug, then title and year;
 * history, ratings and the watchlist land in the diary, the watched list and My List; scrobbles
 * log one viewing at 80 % (409 within the runtime of the last), check-ins once their runtime
 * has passed, pauses keep playback points. Both stores.
 */
import assert from "node:assert/strict";
import { createTraktWritesService } from "@/lib/connections/trakt/writes.ts";
import { SyncBody } from "@/lib/connections/trakt/write_body.ts";
import { Problem } from "@/lib/core/problem.ts";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

const ALIEN = 990_301_348; // stored: Alienation Probe (1979), 117 min, tt9903013 (ids of this file only)
const HEAT = 990_301_949; // stored: Heat Haze Probe (1995), 170 min
const DUNE = 990_301_631; // TMDB only, fetched through the window
const GONE = 999_999_902; // TMDB answers 404

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  tmdb.movies.set(DUNE, detailBody(DUNE, { title: "Dune", release_date: "2021-09-15" }));
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  t.clock.set("2026-12-06T20:00:00.000Z");
  const { store } = t.deps;
  // The titles resolve by a unique match: no other row of a shared database may carry them.
  await store.query(
    `delete from public.movies where catalog_id = any($1::int[])
        or title in ('Alienation Probe', 'Heat Haze Probe') or imdb_id = 'tt9903013'`,
    [[ALIEN, HEAT, DUNE, GONE]],
  );
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details, imdb_id, release_date)
     values ($1, 'Alienation Probe', 'Alienation Probe', 1979, 117, '{}', '/a.jpg', true,
             'tt9903013', '1979-05-25'),
            ($2, 'Heat Haze Probe', 'Heat Haze Probe', 1995, 170, '{}', '/h.jpg', true, null, null)`,
    [ALIEN, HEAT],
  );
  const u = await createUser(t.deps);
  const writes = createTraktWritesService(t.deps, { catalog: t.services.catalog });
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    store.asUser(u.id, (tx) => tx.query<T>(text, params));
  return {
    t,
    tmdb,
    u,
    writes,
    sql,
    viewings: () =>
      sql<{ catalog_id: number; watched_on: string; source: string }>(
        `select catalog_id, watched_on::text, source from public.user_viewings
          order by watched_on, catalog_id`,
      ),
    watched: async () =>
      (await sql<{ catalog_id: number; rating: number | null }>(
        `select catalog_id, rating from public.user_watched_movies order by catalog_id`,
      )).map((r) => [Number(r.catalog_id), r.rating === null ? null : Number(r.rating)]),
    myList: async () =>
      (await sql<{ ids: number[] }>(`select catalog_ids as ids from public.user_my_list`))[0]
        ?.ids.map(Number) ?? [],
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

const body = (value: unknown) => SyncBody.parse(value);

async function status(fn: () => Promise<unknown>): Promise<[number, string, unknown]> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof Problem) return [error.status, error.code, error.extensions];
    throw error;
  }
  return [200, "", undefined];
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a history add resolves tmdb, trakt, stored imdb, slug and title+year ids, fetches an unknown TMDB id through the window, and lists the rest, shows and episodes under not_found`, async () => {
    await using w = await world(engine);
    const answer = await w.writes.addHistory(
      w.u.id,
      body({
        movies: [
          { ids: { tmdb: ALIEN }, watched_at: "2026-12-01T20:00:00.000Z" },
          { ids: { trakt: HEAT }, watched_at: "2026-12-02T20:00:00.000Z" },
          { ids: { imdb: "tt9903013" }, watched_at: "2026-12-03T20:00:00.000Z" },
          { ids: { slug: "heat-haze-probe-1995" }, watched_at: "2026-12-04T20:00:00.000Z" },
          {
            title: "Alienation Probe",
            year: 1979,
            ids: {},
            watched_at: "2026-12-05T20:00:00.000Z",
          },
          { ids: { tmdb: DUNE } },
          { ids: { tmdb: GONE } },
          { ids: { imdb: "tt9999999" } },
        ],
        shows: [{ ids: { tvdb: 1 } }],
        episodes: [{ ids: { tvdb: 2 } }],
      }),
    );
    assert.deepEqual(answer, {
      added: { movies: 6, episodes: 0 },
      not_found: {
        movies: [{ ids: { tmdb: GONE } }, { ids: { imdb: "tt9999999" } }],
        shows: [{ ids: { tvdb: 1 } }],
        seasons: [],
        episodes: [{ ids: { tvdb: 2 } }],
      },
    });
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.watched_on, v.source]), [
      [ALIEN, "2026-12-01", "import"],
      [HEAT, "2026-12-02", "import"],
      [ALIEN, "2026-12-03", "import"],
      [HEAT, "2026-12-04", "import"],
      [ALIEN, "2026-12-05", "import"],
      [DUNE, "2026-12-06", "import"],
    ]);
    const [dune] = await w.sql<{ title: string }>(
      `select title from public.movies where catalog_id = $1`,
      [DUNE],
    );
    assert.equal(dune.title, "Dune");
  });

  Deno.test(`[${engine}] a history add of a film and day that has a viewing from any source adds nothing, the same item twice is one viewing, and the film leaves My List`, async () => {
    await using w = await world(engine);
    await w.t.services.entries.addMyList(w.u.id, HEAT);
    await w.writes.scrobble(w.u.id, {
      body: { movie: { ids: { tmdb: ALIEN } }, progress: 95 },
      call: "stop",
    });
    const again = await w.writes.addHistory(
      w.u.id,
      body({
        movies: [
          { ids: { tmdb: ALIEN }, watched_at: "2026-12-06T19:00:00.000Z" },
          { ids: { tmdb: HEAT }, watched_at: "2026-11-30T10:00:00.000Z" },
          { ids: { tmdb: HEAT }, watched_at: "2026-11-30T10:00:00.000Z" },
        ],
      }),
    );
    assert.deepEqual(again.added, { movies: 1, episodes: 0 });
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.source]), [
      [HEAT, "import"],
      [ALIEN, "scrobble"],
    ]);
    assert.deepEqual(await w.myList(), []);
  });

  Deno.test(`[${engine}] a history remove by movie takes its viewings and the watched film, one by history id only that viewing, and a film watched without a diary entry stays watched`, async () => {
    await using w = await world(engine);
    await w.writes.addHistory(
      w.u.id,
      body({
        movies: [
          { ids: { tmdb: ALIEN }, watched_at: "2026-12-01T20:00:00.000Z" },
          { ids: { tmdb: ALIEN }, watched_at: "2026-12-02T20:00:00.000Z" },
          { ids: { tmdb: HEAT }, watched_at: "2026-12-01T20:00:00.000Z" },
          { ids: { tmdb: HEAT }, watched_at: "2026-12-03T20:00:00.000Z" },
        ],
      }),
    );
    await w.t.services.entries.addWatched(w.u.id, DUNE);
    const [first] = await w.sql<{ trakt_id: number }>(
      `select trakt_id from public.user_viewings where catalog_id = $1 and watched_on = '2026-12-03'`,
      [HEAT],
    );
    const answer = await w.writes.removeHistory(
      w.u.id,
      body({ movies: [{ ids: { tmdb: ALIEN } }, { ids: { tmdb: DUNE } }], ids: [first.trakt_id] }),
    );
    assert.deepEqual(answer.deleted, { movies: 3, episodes: 0 });
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.watched_on]), [
      [HEAT, "2026-12-01"],
    ]);
    assert.deepEqual(await w.watched(), [[HEAT, null], [DUNE, null]].sort((a, b) => a[0]! - b[0]!));
    const [heat] = await w.sql<{ watched_on: string }>(
      `select watched_on::text from public.user_watched_movies where catalog_id = $1`,
      [HEAT],
    );
    assert.equal(heat.watched_on, "2026-12-01");
  });

  Deno.test(`[${engine}] a rating of a film not yet watched makes it watched with that rating and takes it off My List; a remove clears only the ratings there are`, async () => {
    await using w = await world(engine);
    await w.t.services.entries.addMyList(w.u.id, HEAT);
    await w.writes.addHistory(w.u.id, body({ movies: [{ ids: { tmdb: ALIEN } }] }));
    const added = await w.writes.addRatings(
      w.u.id,
      body({ movies: [{ ids: { tmdb: ALIEN }, rating: 9 }, { ids: { tmdb: HEAT }, rating: 1 }] }),
    );
    assert.deepEqual(added.added, { movies: 2, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(await w.watched(), [[ALIEN, 9], [HEAT, 1]]);
    const [viewing] = await w.sql<{ rating: number }>(
      `select rating from public.user_viewings where catalog_id = $1`,
      [ALIEN],
    );
    assert.equal(viewing.rating, 9);
    assert.deepEqual(await w.myList(), []);
    const removed = await w.writes.removeRatings(
      w.u.id,
      body({ movies: [{ ids: { tmdb: ALIEN } }, { ids: { tmdb: DUNE } }] }),
    );
    assert.deepEqual(removed.deleted, { movies: 1, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(await w.watched(), [[ALIEN, null], [HEAT, 1]]);
  });

  Deno.test(`[${engine}] ratings 1 and 10 are taken, 0, 11 and 9.5 answer 422 invalid_rating and change nothing`, async () => {
    await using w = await world(engine);
    for (const rating of [0, 11, 9.5]) {
      const [code, reason] = await status(() =>
        w.writes.addRatings(w.u.id, body({ movies: [{ ids: { tmdb: ALIEN }, rating }] }))
      );
      assert.deepEqual([code, reason], [422, "invalid_rating"]);
    }
    assert.deepEqual(await w.watched(), []);
    await w.writes.addRatings(
      w.u.id,
      body({ movies: [{ ids: { tmdb: ALIEN }, rating: 1 }, { ids: { tmdb: HEAT }, rating: 10 }] }),
    );
    assert.deepEqual(await w.watched(), [[ALIEN, 1], [HEAT, 10]]);
  });

  Deno.test(`[${engine}] a watchlist add appends to My List in order, lists a watched film under not_added with reason watched and one already there as existing; a remove takes films off`, async () => {
    await using w = await world(engine);
    await w.writes.addHistory(w.u.id, body({ movies: [{ ids: { tmdb: ALIEN } }] }));
    await w.t.services.entries.addMyList(w.u.id, DUNE);
    const added = await w.writes.addWatchlist(
      w.u.id,
      body({
        movies: [{ ids: { tmdb: HEAT } }, { ids: { tmdb: ALIEN } }, { ids: { tmdb: DUNE } }],
      }),
    );
    assert.deepEqual(added.added, { movies: 1, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(added.existing, { movies: 1, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(added.not_added, { movies: [{ ids: { tmdb: ALIEN }, reason: "watched" }] });
    assert.equal((added.list as { item_count: number }).item_count, 2);
    assert.deepEqual(await w.myList(), [DUNE, HEAT]);
    const removed = await w.writes.removeWatchlist(
      w.u.id,
      body({ movies: [{ ids: { tmdb: DUNE } }, { ids: { tmdb: ALIEN } }] }),
    );
    assert.deepEqual(removed.deleted, { movies: 1, shows: 0, seasons: 0, episodes: 0 });
    assert.deepEqual(await w.myList(), [HEAT]);
  });

  Deno.test(`[${engine}] a scrobble stop at 80 % logs one viewing with source scrobble and clears the point; a stop of it within its runtime answers 409 with watched_at and expires_at; at its runtime it is the same day's viewing, a day later a second one`, async () => {
    await using w = await world(engine);
    const movie = { ids: { tmdb: ALIEN } };
    const start = await w.writes.scrobble(w.u.id, { body: { movie, progress: 10 }, call: "start" });
    assert.equal(start.action, "start");
    assert.deepEqual((start.movie as { ids: { slug: string } }).ids.slug, "alienation-probe-1979");
    assert.equal((await w.writes.watching(w.u.id))?.action, "scrobble");
    await w.writes.scrobble(w.u.id, { body: { movie, progress: 50 }, call: "pause" });
    assert.equal(await w.writes.watching(w.u.id), null);
    assert.equal((await w.writes.playback(w.u.id)).length, 1);
    const under = await w.writes.scrobble(w.u.id, {
      body: { movie, progress: 79.9 },
      call: "stop",
    });
    assert.equal(under.action, "pause");
    assert.deepEqual(await w.viewings(), []);
    const stop = await w.writes.scrobble(w.u.id, { body: { movie, progress: 80 }, call: "stop" });
    assert.equal(stop.action, "scrobble");
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.source]), [
      [ALIEN, "scrobble"],
    ]);
    assert.deepEqual(await w.writes.playback(w.u.id), []);
    w.t.clock.advance(117 * 60_000 - 1);
    const [code, reason, extra] = await status(() =>
      w.writes.scrobble(w.u.id, { body: { movie, progress: 100 }, call: "stop" })
    );
    assert.deepEqual([code, reason, extra], [409, "already_scrobbled", {
      watched_at: "2026-12-06T20:00:00.000Z",
      expires_at: "2026-12-06T21:57:00.000Z",
    }]);
    w.t.clock.advance(1);
    const atRuntime = await w.writes.scrobble(w.u.id, {
      body: { movie, progress: 100 },
      call: "stop",
    });
    assert.equal(atRuntime.action, "scrobble");
    assert.equal((await w.viewings()).length, 1);
    w.t.clock.advance(86_400_000);
    const later = await w.writes.scrobble(w.u.id, { body: { movie, progress: 99 }, call: "stop" });
    assert.equal(later.action, "scrobble");
    assert.equal((await w.viewings()).length, 2);
  });

  Deno.test(`[${engine}] a scrobble start is watching now until its runtime has passed, counted back from its progress`, async () => {
    await using w = await world(engine);
    await w.writes.scrobble(w.u.id, {
      body: { movie: { ids: { tmdb: HEAT } }, progress: 50 },
      call: "start",
    });
    const now = await w.writes.watching(w.u.id);
    assert.equal(now?.started_at, "2026-12-06T18:35:00.000Z");
    assert.equal(now?.expires_at, "2026-12-06T21:25:00.000Z");
    assert.equal(now?.progress, 50);
    w.t.clock.advance(85 * 60_000 - 1);
    assert.notEqual(await w.writes.watching(w.u.id), null);
    w.t.clock.advance(1);
    assert.equal(await w.writes.watching(w.u.id), null);
  });

  Deno.test(`[${engine}] a check-in answers 409 with expires_at while it runs, logs a checkin viewing once its runtime has passed, and a cancelled one logs nothing`, async () => {
    await using w = await world(engine);
    const first = await w.writes.checkin(w.u.id, { movie: { ids: { tmdb: ALIEN } } });
    assert.equal(first.watched_at, "2026-12-06T20:00:00.000Z");
    const [code, reason, extra] = await status(() =>
      w.writes.checkin(w.u.id, { movie: { ids: { tmdb: HEAT } } })
    );
    assert.deepEqual([code, reason, extra], [409, "checkin_in_progress", {
      expires_at: "2026-12-06T21:57:00.000Z",
    }]);
    w.t.clock.advance(117 * 60_000 - 1);
    assert.equal((await w.writes.watching(w.u.id))?.action, "checkin");
    assert.deepEqual(await w.viewings(), []);
    w.t.clock.advance(1);
    assert.equal(await w.writes.watching(w.u.id), null);
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.source]), [
      [ALIEN, "checkin"],
    ]);
    await w.writes.checkin(w.u.id, { movie: { ids: { tmdb: HEAT } } });
    await w.writes.cancelCheckin(w.u.id);
    w.t.clock.advance(200 * 60_000);
    assert.equal(await w.writes.watching(w.u.id), null);
    assert.equal((await w.viewings()).length, 1);
  });

  Deno.test(`[${engine}] a playback point is removed by its id; an id of none answers 404`, async () => {
    await using w = await world(engine);
    await w.writes.scrobble(w.u.id, {
      body: { movie: { ids: { tmdb: HEAT } }, progress: 42.5 },
      call: "pause",
    });
    const [point] = await w.writes.playback(w.u.id);
    assert.equal(point.progress, 42.5);
    assert.equal(point.paused_at, "2026-12-06T20:00:00.000Z");
    assert.equal(point.type, "movie");
    const other = await createUser(w.t.deps);
    assert.deepEqual(
      (await status(() => w.writes.removePlayback(other.id, point.id as number))).slice(0, 2),
      [404, "not_found"],
    );
    await w.writes.removePlayback(w.u.id, point.id as number);
    assert.deepEqual(await w.writes.playback(w.u.id), []);
  });

  Deno.test(`[${engine}] progress outside 0-100, an unknown movie and a watched_at past tomorrow are refused before anything is written`, async () => {
    await using w = await world(engine);
    const movie = { ids: { tmdb: ALIEN } };
    for (const progress of [-1, 100.1, "x"]) {
      const [code, reason] = await status(() =>
        w.writes.scrobble(w.u.id, { body: { movie, progress }, call: "start" })
      );
      assert.deepEqual([code, reason], [422, "invalid_progress"]);
    }
    const [missing] = await status(() =>
      w.writes.scrobble(w.u.id, {
        body: { movie: { ids: { tmdb: GONE } }, progress: 0 },
        call: "start",
      })
    );
    assert.equal(missing, 404);
    const [late, lateCode] = await status(() =>
      w.writes.addHistory(
        w.u.id,
        body({ movies: [{ ids: { tmdb: ALIEN }, watched_at: "2026-12-08T00:00:00.000Z" }] }),
      )
    );
    assert.deepEqual([late, lateCode], [422, "invalid_watched_at"]);
    await w.writes.addHistory(
      w.u.id,
      body({ movies: [{ ids: { tmdb: ALIEN }, watched_at: "2026-12-07T23:59:59.999Z" }] }),
    );
    assert.deepEqual((await w.viewings()).map((v) => v.watched_on), ["2026-12-07"]);
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a rating keeps the client's rated_at, one without it is dated now, and a rated_at that is not a time or past tomorrow answers 422 invalid_rated_at`, async () => {
    await using w = await world(engine);
    await w.writes.addRatings(
      w.u.id,
      body({
        movies: [
          { ids: { tmdb: ALIEN }, rating: 6, rated_at: "2014-09-01T09:10:11.000Z" },
          { ids: { tmdb: HEAT }, rating: 7 },
        ],
      }),
    );
    const times = await w.sql<{ catalog_id: number; at: string }>(
      `select catalog_id, to_char(rated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
         from public.user_watched_movies order by catalog_id`,
    );
    assert.deepEqual(times.map((r) => [Number(r.catalog_id), r.at]), [
      [ALIEN, "2014-09-01T09:10:11Z"],
      [HEAT, times[1].at],
    ]);
    assert.notEqual(times[1].at, "2014-09-01T09:10:11Z");
    for (const rated_at of ["yesterday", "2026-12-08T00:00:00.001Z"]) {
      const [code, reason] = await status(() =>
        w.writes.addRatings(
          w.u.id,
          body({ movies: [{ ids: { tmdb: HEAT }, rating: 5, rated_at }] }),
        )
      );
      assert.deepEqual([code, reason], [422, "invalid_rated_at"]);
    }
    await w.writes.addRatings(
      w.u.id,
      body({ movies: [{ ids: { tmdb: HEAT }, rating: 5, rated_at: "2026-12-07T20:00:00.000Z" }] }),
    );
    assert.deepEqual(await w.watched(), [[ALIEN, 6], [HEAT, 5]]);
  });

  Deno.test(`[${engine}] a history add at watched_at "released" is dated the film's release day, or today when the film has none stored`, async () => {
    await using w = await world(engine);
    await w.writes.addHistory(
      w.u.id,
      body({
        movies: [{ ids: { tmdb: ALIEN }, watched_at: "released" }, {
          ids: { tmdb: HEAT },
          watched_at: "released",
        }],
      }),
    );
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.watched_on]), [
      [ALIEN, "1979-05-25"],
      [HEAT, "2026-12-06"],
    ]);
  });

  Deno.test(`[${engine}] unknown TMDB ids of one body are each fetched through the window, and a TMDB id TMDB does not know falls back to the stored IMDb id`, async () => {
    await using w = await world(engine);
    const extra = [990_301_701, 990_301_702, 990_301_703];
    for (const id of extra) w.tmdb.movies.set(id, detailBody(id, { title: `Extra ${id}` }));
    // A shared database keeps what an earlier run fetched: these must be unknown again.
    await w.t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
      extra,
    ]);
    const answer = await w.writes.addHistory(
      w.u.id,
      body({
        movies: [
          ...extra.map((id) => ({ ids: { tmdb: id } })),
          { ids: { tmdb: GONE, imdb: "tt9903013" } },
        ],
      }),
    );
    assert.deepEqual(answer.added, { movies: 4, episodes: 0 });
    assert.deepEqual(
      (await w.viewings()).map((v) => Number(v.catalog_id)).sort((a, b) => a - b),
      [ALIEN, ...extra].sort((a, b) => a - b),
    );
    const asked = w.tmdb.requests.filter((r) => r.path.startsWith("/movie/")).map((r) => r.path);
    for (const id of extra) assert.ok(asked.some((p) => p.startsWith(`/movie/${id}`)));
  });

  Deno.test(`[${engine}] a scrobbled film leaves My List unless the user keeps media-server plays on it (removeFromMyList false)`, async () => {
    await using w = await world(engine);
    await w.t.services.entries.addMyList(w.u.id, ALIEN);
    await w.t.services.entries.addMyList(w.u.id, HEAT);
    const stop = (id: number) =>
      w.writes.scrobble(w.u.id, {
        body: { movie: { ids: { tmdb: id } }, progress: 90 },
        call: "stop",
      });
    await stop(ALIEN);
    assert.deepEqual(await w.myList(), [HEAT]);
    await w.t.services.connections.update(w.u.id, { removeFromMyList: false });
    await stop(HEAT);
    assert.deepEqual(await w.myList(), [HEAT]);
    assert.deepEqual((await w.viewings()).map((v) => [v.catalog_id, v.source]), [
      [ALIEN, "scrobble"],
      [HEAT, "scrobble"],
    ]);
  });
}
