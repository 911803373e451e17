/**
 * The /trakt reads over HTTP on both stores (docs/trakt.md, "Reads"): a token's own data in
 * Trakt's shapes, the pagination headers at their edges, the empty show and episode lists,
 * lists by number and slug, and search and movies without a token.
 */
import assert from "node:assert/strict";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const KEY = { "trakt-api-key": "client-abc", "trakt-api-version": "2" };

async function personalToken(t: TestApp, u: TestUser): Promise<string> {
  const made = await (await t.request("/api/tokens", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "trakt reads", scope: "read" }),
  })).json();
  return made.token;
}

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  const u = await createUser(t.deps);
  const token = await personalToken(t, u);
  const store = t.deps.store;
  await store.query(
    `insert into public.movies (catalog_id, title, year, release_date, runtime, imdb_id, genres, overview)
     values (155, 'The Dark Knight', 2008, '2008-07-16', 152, 'tt0468569', '{Drama,Crime}', 'Batman.'),
            (603, 'The Matrix', 1999, '1999-03-30', 136, null, '{}', ''),
            (27205, 'Inception', 2010, '2010-07-15', 148, 'tt1375666', '{}', '')
     on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
       release_date = excluded.release_date, runtime = excluded.runtime,
       imdb_id = excluded.imdb_id, genres = excluded.genres, overview = excluded.overview`,
  );
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, rating, rated_at)
     values ($1, 155, 9, '2024-01-05T00:00:00Z'), ($1, 603, null, null)`,
    [u.id],
  );
  await store.query(
    `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
     values ($1, 155, '2024-01-02', 'manual', '2024-02-01T00:00:00Z'),
            ($1, 603, '2024-02-10', 'webhook', '2024-02-10T20:00:00Z'),
            ($1, 603, '2024-03-01', 'import', '2024-05-01T00:00:00Z')`,
    [u.id],
  );
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, '{27205}')`,
    [u.id],
  );
  return {
    t,
    u,
    auth: { ...KEY, authorization: `Bearer ${token}` },
    get: (path: string, headers: Record<string, string> = {}) => t.request(path, { headers }),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

function pages(response: Response): string[] {
  return ["page", "limit", "page-count", "item-count"].map((h) =>
    response.headers.get(`x-pagination-${h}`) ?? "missing"
  );
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /trakt/sync/history/movies pages with Trakt's headers: limit 1,000 is the most, 1,001 and 0 answer 422 in Trakt's body`, async () => {
    await using w = await world(engine);
    const all = await w.get("/trakt/sync/history/movies", w.auth);
    assert.equal(all.status, 200);
    assert.deepEqual(pages(all), ["1", "3", "1", "3"]);
    const items = await all.json();
    assert.deepEqual(items.map((i: { action: string }) => i.action), [
      "watch",
      "scrobble",
      "watch",
    ]);
    assert.deepEqual(Object.keys(items[0]), ["id", "watched_at", "action", "type", "movie"]);
    assert.deepEqual(items[0].movie, {
      title: "The Matrix",
      year: 1999,
      ids: { trakt: 603, slug: "the-matrix-1999", imdb: null, tmdb: 603 },
    });

    const page2 = await w.get("/trakt/sync/history/movies?page=2&limit=2", w.auth);
    assert.deepEqual(pages(page2), ["2", "2", "2", "3"]);
    assert.deepEqual((await page2.json()).map((i: { id: number }) => i.id), [items[2].id]);
    const onlyPage = await w.get("/trakt/sync/history/movies?page=2", w.auth);
    assert.deepEqual(pages(onlyPage), ["2", "10", "1", "3"]);
    assert.deepEqual(await onlyPage.json(), []);
    const most = await w.get("/trakt/sync/history/movies?limit=1000", w.auth);
    assert.deepEqual(pages(most), ["1", "1000", "1", "3"]);
    await most.body?.cancel();
    for (const bad of ["limit=1001", "limit=0", "page=0", "page=two", "start_at=yesterday"]) {
      const refused = await w.get(`/trakt/sync/history/movies?${bad}`, w.auth);
      assert.equal(refused.status, 422, bad);
      assert.match(refused.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(
        (await refused.json()).error,
        bad.startsWith("start") ? "invalid_value" : "invalid_pagination",
      );
    }
    const one = await w.get("/trakt/sync/history/movies/155", w.auth);
    assert.deepEqual(
      (await one.json()).map((i: { movie: { ids: { trakt: number } } }) => i.movie.ids.trakt),
      [155],
    );
    const ranged = await w.get(
      "/trakt/sync/history/movies?start_at=2024-02-10T00:00:00.000Z&end_at=2024-02-28T00:00:00.000Z",
      w.auth,
    );
    assert.deepEqual((await ranged.json()).map((i: { id: number }) => i.id), [items[1].id]);
  });

  Deno.test(`[${engine}] GET /trakt/sync/watched, ratings and watchlist answer the user's films in Trakt's shapes; extended=full adds the details`, async () => {
    await using w = await world(engine);
    const watched = await (await w.get("/trakt/sync/watched/movies?extended=full", w.auth)).json();
    const knight = watched.find((x: { movie: { ids: { trakt: number } } }) =>
      x.movie.ids.trakt === 155
    );
    assert.equal(knight.plays, 1);
    assert.equal(knight.movie.overview, "Batman.");
    assert.deepEqual(knight.movie.genres, ["drama", "crime"]);
    assert.equal(knight.movie.runtime, 152);
    assert.equal(
      watched.find((x: { movie: { ids: { trakt: number } } }) => x.movie.ids.trakt === 603).plays,
      2,
    );

    const ratings = await w.get("/trakt/sync/ratings/movies", w.auth);
    assert.deepEqual(await ratings.json(), [{
      rated_at: "2024-01-05T00:00:00.000Z",
      rating: 9,
      type: "movie",
      movie: {
        title: "The Dark Knight",
        year: 2008,
        ids: { trakt: 155, slug: "the-dark-knight-2008", imdb: "tt0468569", tmdb: 155 },
      },
    }]);
    assert.deepEqual(await (await w.get("/trakt/sync/ratings/movies/8,10", w.auth)).json(), []);
    assert.equal((await w.get("/trakt/sync/ratings/movies/11", w.auth)).status, 422);

    const list = await (await w.get("/trakt/sync/watchlist/movies/title", w.auth)).json();
    assert.deepEqual(
      list.map((i: { rank: number; id: number; notes: null }) => [i.rank, i.id, i.notes]),
      [[1, 27205, null]],
    );
    assert.equal((await w.get("/trakt/sync/watchlist/movies/popularity", w.auth)).status, 422);
  });

  Deno.test(`[${engine}] show, season and episode lists read empty with pagination headers, and a sync read without a token is 401 with Trakt's realm`, async () => {
    await using w = await world(engine);
    for (
      const path of [
        "/trakt/sync/watched/shows",
        "/trakt/sync/history/episodes",
        "/trakt/sync/ratings/seasons",
        "/trakt/sync/watchlist/shows",
      ]
    ) {
      const response = await w.get(path, w.auth);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), []);
      assert.equal(response.headers.get("x-pagination-item-count"), "0");
    }
    const anonymous = await w.get("/trakt/sync/watched/movies", KEY);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), 'Bearer realm="trakt"');
    await anonymous.body?.cancel();
  });

  Deno.test(`[${engine}] GET /trakt/sync/last_activities moves when the website writes, and users/settings names the user`, async () => {
    await using w = await world(engine);
    const before = await (await w.get("/trakt/sync/last_activities", w.auth)).json();
    assert.notEqual(before.movies.watched_at, "1970-01-01T00:00:00.000Z");
    assert.equal(before.lists.updated_at, "1970-01-01T00:00:00.000Z");
    assert.equal(before.episodes.watched_at, "1970-01-01T00:00:00.000Z");
    const made = await w.t.request("/api/lists", {
      method: "POST",
      headers: { ...w.u.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "Heists" }),
    });
    assert.equal(made.status, 201);
    await made.body?.cancel();
    const after = await (await w.get("/trakt/sync/last_activities", w.auth)).json();
    assert.ok(after.lists.updated_at > before.lists.updated_at);
    assert.equal(after.all, after.lists.updated_at);

    const settings = await (await w.get("/trakt/users/settings", w.auth)).json();
    assert.equal(settings.user.username, w.u.id);
    assert.equal(settings.user.vip, false);
    assert.equal(settings.account.date_format, "mdy");
  });

  Deno.test(`[${engine}] GET /trakt/users/me/lists and a list's items by number or slug; another user's id is 404`, async () => {
    await using w = await world(engine);
    const [list] = await w.t.deps.store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name, description, ranked) values ($1, 'Best of Nolan', 'Ranked.', true) returning id`,
      [w.u.id],
    );
    await w.t.deps.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position, note) values ($1, 27205, 1, 'dreams'), ($1, 155, 2, null)`,
      [list.id],
    );
    const lists = await (await w.get("/trakt/users/me/lists", w.auth)).json();
    assert.equal(lists.length, 1);
    assert.equal(lists[0].name, "Best of Nolan");
    assert.equal(lists[0].privacy, "private");
    assert.equal(lists[0].item_count, 2);
    assert.equal(lists[0].display_numbers, true);
    assert.equal(typeof lists[0].ids.trakt, "number");
    assert.equal(lists[0].ids.slug, "best-of-nolan");

    const byNumber = await w.get(
      `/trakt/users/me/lists/${lists[0].ids.trakt}/items?limit=1`,
      w.auth,
    );
    assert.deepEqual(pages(byNumber), ["1", "1", "2", "2"]);
    const first = await byNumber.json();
    assert.deepEqual([first[0].rank, first[0].id, first[0].notes, first[0].movie.ids.slug], [
      1,
      27205,
      "dreams",
      "inception-2010",
    ]);
    const bySlug = await (await w.get(`/trakt/users/${w.u.id}/lists/best-of-nolan/items`, w.auth))
      .json();
    assert.deepEqual(bySlug.map((i: { id: number }) => i.id), [27205, 155]);
    const shows = await w.get("/trakt/users/me/lists/best-of-nolan/items?type=show", w.auth);
    assert.deepEqual(await shows.json(), []);
    const movies = await w.get("/trakt/users/me/lists/best-of-nolan/items?type=movie,show", w.auth);
    assert.equal((await movies.json()).length, 2);
    const one = await (await w.get("/trakt/users/me/lists/best-of-nolan", w.auth)).json();
    assert.equal(one.ids.trakt, lists[0].ids.trakt);

    assert.equal((await w.get("/trakt/users/me/lists/no-such-list/items", w.auth)).status, 404);
    const other = await w.get(`/trakt/users/${crypto.randomUUID()}/lists`, w.auth);
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error, "not_found");
  });

  Deno.test(`[${engine}] GET /trakt/movies/:id and /trakt/search by id need only the API key: trakt id, slug, imdb; unknown 404 or []`, async () => {
    await using w = await world(engine);
    for (const id of ["155", "the-dark-knight-2008", "tt0468569"]) {
      const response = await w.get(`/trakt/movies/${id}`, KEY);
      assert.equal(response.status, 200, id);
      assert.deepEqual((await response.json()).ids, {
        trakt: 155,
        slug: "the-dark-knight-2008",
        imdb: "tt0468569",
        tmdb: 155,
      });
    }
    const full = await (await w.get("/trakt/movies/155?extended=full", KEY)).json();
    assert.equal(full.released, "2008-07-16");
    assert.equal((await w.get("/trakt/movies/the-dark-knight-2009", KEY)).status, 404);

    const byImdb = await (await w.get("/trakt/search/imdb/tt1375666?type=movie", KEY)).json();
    assert.deepEqual(
      byImdb.map((
        r: { type: string; score: number; movie: { ids: { trakt: number } } },
      ) => [r.type, r.score, r.movie.ids.trakt]),
      [["movie", 1000, 27205]],
    );
    const byTmdb = await (await w.get("/trakt/search/tmdb/603", KEY)).json();
    assert.equal(byTmdb[0].movie.title, "The Matrix");
    assert.deepEqual(await (await w.get("/trakt/search/tmdb/99999999?type=movie", KEY)).json(), []);
    assert.deepEqual(await (await w.get("/trakt/search/tmdb/603?type=show", KEY)).json(), []);
    assert.equal((await w.get("/trakt/search/tvdb/603", KEY)).status, 404);
  });

  Deno.test(`[${engine}] GET /trakt/search/movie?query= answers the catalog search's films as Trakt results, paged`, async () => {
    await using w = await world(engine);
    // A stored row is what the result shows (its IMDb id): the one TMDB's fixture names.
    await w.t.deps.store.query(
      `insert into public.movies (catalog_id, title, year) values (550, 'Fight Club', 1999)
       on conflict (catalog_id) do update set title = 'Fight Club', year = 1999, imdb_id = null`,
    );
    const response = await w.get("/trakt/search/movie?query=fight%20club&limit=2", KEY);
    assert.equal(response.status, 200);
    const results = await response.json();
    assert.equal(results.length, 2);
    assert.deepEqual(results[0], {
      type: "movie",
      score: 1000,
      movie: {
        title: "Fight Club",
        year: 1999,
        ids: { trakt: 550, slug: "fight-club-1999", imdb: null, tmdb: 550 },
      },
    });
    assert.equal(results[1].score, 990);
    assert.deepEqual(pages(response).slice(0, 2), ["1", "2"]);
    assert.equal((await w.get("/trakt/search/movie?query=", KEY)).status, 422);
    assert.deepEqual(await (await w.get("/trakt/search/show?query=fight", KEY)).json(), []);
  });

  Deno.test(`[${engine}] GET /trakt/sync/history, /sync/ratings and /sync/watchlist without a type answer the movie reads, paged`, async () => {
    await using w = await world(engine);
    for (
      const [bare, typed] of [["history", "history/movies"], ["ratings", "ratings/movies"], [
        "watchlist",
        "watchlist/movies",
      ]]
    ) {
      const all = await w.get(`/trakt/sync/${bare}?limit=2`, w.auth);
      assert.equal(all.status, 200, bare);
      const movies = await w.get(`/trakt/sync/${typed}?limit=2`, w.auth);
      assert.deepEqual(pages(all), pages(movies));
      assert.deepEqual(await all.json(), await movies.json());
    }
  });
}
