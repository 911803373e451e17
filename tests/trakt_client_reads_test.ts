/**
 * The real Trakt client, unmodified (the npm package `trakt.tv` 8.2.0, its `api_url` set to the
 * test server's /trakt, signed in with a personal access token), on the reads (docs/trakt.md,
 * "Reads"): last_activities moving after a sync, watched, the history with the client's own
 * pagination, settings, lists and their items, search by id and text, a movie's summary. Both
 * stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { signedInTraktClient } from "./helpers/trakt_client.ts";
import { createUser } from "./helpers/users.ts";

const DUNE = 990_404_438; // ids of this file only
const ARRIVAL = 990_404_329;

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  t.clock.set("2026-12-06T20:00:00.000Z");
  await t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
    [DUNE, ARRIVAL],
  ]);
  await t.deps.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details, imdb_id, overview)
     values ($1, 'Dune Sands Client', 'Dune Sands Client', 2021, 155, '{Science Fiction}', '/d.jpg', true, 'tt9904438', 'Spice.'),
            ($2, 'Arrival Tongues Client', 'Arrival Tongues Client', 2016, 116, '{Drama}', '/a.jpg', true, null, '')`,
    [DUNE, ARRIVAL],
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

type Item = { movie: { ids: { tmdb: number } } } & Record<string, unknown>;

for (const engine of ENGINES) {
  Deno.test(`[${engine}] trakt.tv 8.2.0 sees last_activities move after its history sync, then reads watched and the history page by page`, async () => {
    await using w = await world(engine);
    const { trakt } = w;
    const before = await trakt.sync.last_activities();
    assert.equal(before.movies.watched_at, "1970-01-01T00:00:00.000Z");
    await trakt.sync.history.add({
      movies: [
        { ids: { tmdb: DUNE }, watched_at: "2026-11-01T21:00:00.000Z" },
        { ids: { tmdb: DUNE }, watched_at: "2026-11-20T21:00:00.000Z" },
        { ids: { tmdb: ARRIVAL }, watched_at: "2026-11-10T21:00:00.000Z" },
      ],
    });
    const after = await trakt.sync.last_activities();
    assert.ok(after.movies.watched_at > before.movies.watched_at);
    assert.equal(after.episodes.watched_at, "1970-01-01T00:00:00.000Z");

    const watched = await trakt.sync.watched({ type: "movies" });
    const plays = Object.fromEntries(
      watched.map((x: Item & { plays: number }) => [x.movie.ids.tmdb, x.plays]),
    );
    assert.deepEqual(plays, { [DUNE]: 2, [ARRIVAL]: 1 });

    const first = await trakt.sync.history.get({
      type: "movies",
      page: 1,
      limit: 2,
      pagination: true,
    });
    assert.deepEqual(first.pagination, {
      "item-count": "3",
      limit: "2",
      page: "1",
      "page-count": "2",
    });
    assert.deepEqual(first.data.map((h: Item) => h.movie.ids.tmdb), [DUNE, ARRIVAL]);
    const second = await trakt.sync.history.get({
      type: "movies",
      page: 2,
      limit: 2,
      pagination: true,
    });
    assert.deepEqual(second.data.map((h: Item) => h.movie.ids.tmdb), [DUNE]);
    const ids = [...first.data, ...second.data].map((h: { id: number }) => h.id);
    assert.equal(new Set(ids).size, 3);
    for (const id of ids) assert.equal(typeof id, "number");
  });

  Deno.test(`[${engine}] trakt.tv 8.2.0 reads its settings, its lists and their items, searches by id and text, and a movie's summary`, async () => {
    await using w = await world(engine);
    const { trakt } = w;
    const settings = await trakt.users.settings();
    assert.equal(settings.user.ids.slug, w.u.id);

    const [list] = await w.t.deps.store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name) values ($1, 'Sand and Words') returning id`,
      [w.u.id],
    );
    await w.t.deps.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position) values ($1, $2, 1), ($1, $3, 2)`,
      [list.id, ARRIVAL, DUNE],
    );
    const lists = await trakt.users.lists.get({ username: "me" });
    assert.deepEqual(lists.map((l: { name: string }) => l.name), ["Sand and Words"]);
    const items = await trakt.users.list.items.get({ username: "me", id: lists[0].ids.slug });
    assert.deepEqual(items.map((i: Item) => i.movie.ids.tmdb), [ARRIVAL, DUNE]);

    const byImdb = await trakt.search.id({ id_type: "imdb", id: "tt9904438", type: "movie" });
    assert.deepEqual(byImdb.map((r: Item & { type: string }) => [r.type, r.movie.ids.tmdb]), [[
      "movie",
      DUNE,
    ]]);
    const text = await trakt.search.text({ type: "movie", query: "fight club" });
    assert.equal(text[0].movie.title, "Fight Club");

    const summary = await trakt.movies.summary({ id: "dune-sands-client-2021", extended: "full" });
    assert.deepEqual(
      [summary.ids.trakt, summary.ids.imdb, summary.overview, summary.genres, summary.runtime],
      [DUNE, "tt9904438", "Spice.", ["science-fiction"], 155],
    );
  });
}
