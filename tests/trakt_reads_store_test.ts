/**
 * The /trakt reads as services on both stores (docs/trakt.md, "Reads"): the watched films with
 * their plays, the history one item per viewing with a stable number id, the ratings, My List as
 * the watchlist, and last_activities moving whichever path writes (the store's triggers).
 */
import assert from "node:assert/strict";
import type { Store } from "@/lib/platform/store/mod.ts";
import { readLastActivities, readTraktSettings } from "@/lib/connections/trakt/account_reads.ts";
import { paginationHeaders, parsePageAsk } from "@/lib/connections/trakt/pagination.ts";
import {
  readHistory,
  readRatings,
  readWatched,
  readWatchlist,
} from "@/lib/connections/trakt/sync_reads.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

async function user(store: Store): Promise<string> {
  const id = crypto.randomUUID();
  await store.query(
    `insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`,
    [id, `trakt-${id.slice(0, 8)}@example.test`],
  );
  return id;
}

async function movies(store: Store): Promise<void> {
  await store.query(
    `insert into public.movies (catalog_id, title, year, release_date, runtime, imdb_id, genres)
     values (155, 'The Dark Knight', 2008, '2008-07-16', 152, 'tt0468569', '{Drama}'),
            (603, 'The Matrix', 1999, '1999-03-30', 136, null, '{}'),
            (27205, 'Inception', 2010, '2010-07-15', 148, 'tt1375666', '{}')
     on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
       imdb_id = excluded.imdb_id`,
  );
}

async function activity(store: Store, userId: string) {
  return await readLastActivities(store, userId);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] sync/watched counts a film's viewings as plays, at least 1 for a film watched without a diary entry`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on, created_at)
       values ($1, 155, '2024-01-02', '2024-01-03T10:00:00Z'), ($1, 603, null, '2023-05-01T08:00:00Z')`,
      [u],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
       values ($1, 155, '2024-01-02', 'manual', '2024-01-03T10:00:00Z'),
              ($1, 155, '2024-03-09', 'webhook', '2024-03-09T21:30:15.250Z')`,
      [u],
    );
    const watched = await readWatched(store, u);
    assert.deepEqual(watched.map((w) => [w.movie.ids.trakt, w.plays, w.last_watched_at]), [
      [155, 2, "2024-03-09T21:30:15.250Z"],
      [603, 1, "2023-05-01T08:00:00.000Z"],
    ]);
    assert.equal(watched[0].movie.ids.slug, "the-dark-knight-2008");
    assert.equal(watched[0].last_updated_at, "2024-03-09T21:30:15.250Z");
  });

  Deno.test(`[${engine}] sync/history is one item per viewing, newest first, with number ids stable across reads, Trakt's action per source, a page and a range`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    const other = await user(store);
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id) values ($1, 155), ($1, 603), ($2, 603)`,
      [u, other],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
       values ($1, 155, '2024-01-02', 'manual', '2024-02-01T00:00:00Z'),
              ($1, 603, '2024-02-10', 'webhook', '2024-02-10T20:00:00Z'),
              ($1, 603, '2024-03-01', 'import', '2024-05-01T00:00:00Z'),
              ($2, 603, '2024-03-01', 'manual', '2024-05-01T00:00:00Z')`,
      [u, other],
    );
    const all = await readHistory(store, u, { page: null });
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.items.map((
        i,
      ) => [i.watched_at, i.action, (i.movie as { ids: { trakt: number } }).ids.trakt]),
      [
        ["2024-03-01T00:00:00.000Z", "watch", 603],
        ["2024-02-10T20:00:00.000Z", "scrobble", 603],
        ["2024-01-02T00:00:00.000Z", "watch", 155],
      ],
    );
    for (const item of all.items) assert.equal(typeof item.id, "number");
    const again = await readHistory(store, u, { page: null });
    assert.deepEqual(again.items.map((i) => i.id), all.items.map((i) => i.id));

    const page2 = await readHistory(store, u, { page: { page: 2, limit: 2 } });
    assert.equal(page2.total, 3);
    assert.deepEqual(page2.items.map((i) => i.id), [all.items[2].id]);
    const past = await readHistory(store, u, { page: { page: 3, limit: 2 } });
    assert.deepEqual(past, { items: [], total: 3 });

    const one = await readHistory(store, u, { catalogId: 603, page: null });
    assert.equal(one.total, 2);
    const ranged = await readHistory(store, u, {
      startAt: "2024-01-02T00:00:00.000Z",
      endAt: "2024-02-10T20:00:00.000Z",
      page: null,
    });
    assert.deepEqual(ranged.items.map((i) => i.id), [all.items[1].id, all.items[2].id]);
    assert.deepEqual(await readHistory(store, await user(store), { page: null }), {
      items: [],
      total: 0,
    });
  });

  Deno.test(`[${engine}] sync/ratings answers the watched films' ratings with their time, filtered by rating, and a new rating takes the time of its change`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, rating, rated_at)
       values ($1, 155, 9, '2024-01-01T00:00:00Z'), ($1, 603, 7, '2024-02-01T00:00:00Z'), ($1, 27205, null, null)`,
      [u],
    );
    const all = await readRatings(store, u, { page: null });
    assert.deepEqual(all.items.map((r) => [r.rating, r.rated_at]), [
      [7, "2024-02-01T00:00:00.000Z"],
      [9, "2024-01-01T00:00:00.000Z"],
    ]);
    assert.equal(all.total, 2);
    const nines = await readRatings(store, u, { ratings: [9, 10], page: null });
    assert.deepEqual(nines.items.map((r) => r.rating), [9]);

    await store.query(
      `update public.user_watched_movies set rating = 8 where user_id = $1 and catalog_id = 155`,
      [u],
    );
    const [row] = await store.query<{ fresh: boolean }>(
      `select rated_at > now() - interval '1 minute' as fresh from public.user_watched_movies
        where user_id = $1 and catalog_id = 155`,
      [u],
    );
    assert.equal(row.fresh, true);
    await store.query(
      `update public.user_watched_movies set rating = null where user_id = $1 and catalog_id = 603`,
      [u],
    );
    assert.deepEqual((await readRatings(store, u, { page: null })).items.map((r) => r.rating), [8]);
  });

  Deno.test(`[${engine}] sync/watchlist is My List in its order with rank from 1, sorted by title when asked, and empty without a list`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    assert.deepEqual(await readWatchlist(store, u, { page: null }), { items: [], total: 0 });
    await store.query(
      `insert into public.user_my_list (user_id, catalog_ids, updated_at) values ($1, '{603,27205,155}', '2024-04-04T04:04:04Z')`,
      [u],
    );
    const list = await readWatchlist(store, u, { page: null });
    assert.equal(list.total, 3);
    assert.deepEqual(list.items.map((i) => [i.rank, i.id, i.listed_at, i.notes, i.type]), [
      [1, 603, "2024-04-04T04:04:04.000Z", null, "movie"],
      [2, 27205, "2024-04-04T04:04:04.000Z", null, "movie"],
      [3, 155, "2024-04-04T04:04:04.000Z", null, "movie"],
    ]);
    const byTitle = await readWatchlist(store, u, { sort: "title", page: null });
    assert.deepEqual(byTitle.items.map((i) => i.id), [27205, 155, 603]);
    const page = await readWatchlist(store, u, { page: { page: 2, limit: 2 } });
    assert.deepEqual(page.items.map((i) => i.rank), [3]);
    assert.equal(page.total, 3);
  });

  Deno.test(`[${engine}] last_activities starts at the epoch and each movie time moves on a write by any path (watched, viewings, ratings, My List, dismissals, lists, profile, playback points), strictly later each time`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    const start = await activity(store, u);
    assert.equal(start.all, "1970-01-01T00:00:00.000Z");
    assert.equal(start.movies.watched_at, "1970-01-01T00:00:00.000Z");
    assert.equal(start.episodes.watched_at, "1970-01-01T00:00:00.000Z");

    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id) values ($1, 155)`,
      [u],
    );
    const a = await activity(store, u);
    assert.notEqual(a.movies.watched_at, start.movies.watched_at);
    assert.equal(a.movies.rated_at, "1970-01-01T00:00:00.000Z");
    assert.equal(a.all, a.movies.watched_at);
    assert.match(a.all, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Two writes in one transaction: the second still moves the time (1 ms on).
    await store.transaction(async (tx) => {
      await tx.query(
        `insert into public.user_viewings (user_id, catalog_id, watched_on, source) values ($1, 155, '2024-01-01', 'webhook')`,
        [u],
      );
      await tx.query(
        `insert into public.user_viewings (user_id, catalog_id, watched_on, source) values ($1, 155, '2024-01-02', 'import')`,
        [u],
      );
    });
    const b = await activity(store, u);
    assert.ok(b.movies.watched_at > a.movies.watched_at);

    await store.query(`update public.user_watched_movies set rating = 6 where user_id = $1`, [u]);
    const c = await activity(store, u);
    assert.ok(c.movies.rated_at > "1970");
    assert.equal(c.movies.watched_at, b.movies.watched_at, "a rating is not a viewing");

    await store.query(
      `insert into public.user_my_list (user_id, catalog_ids) values ($1, '{603}')`,
      [u],
    );
    const d = await activity(store, u);
    assert.ok(d.movies.watchlisted_at > "1970");
    assert.equal(d.watchlist.updated_at, d.movies.watchlisted_at);

    await store.query(
      `insert into public.user_dismissed_movies (user_id, catalog_id) values ($1, 27205)`,
      [u],
    );
    assert.ok((await activity(store, u)).movies.hidden_at > "1970");

    const [list] = await store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name) values ($1, 'Noir') returning id`,
      [u],
    );
    const e = await activity(store, u);
    assert.ok(e.lists.updated_at > "1970");
    await store.query(
      `insert into public.user_list_items (list_id, catalog_id, position) values ($1, 155, 1)`,
      [list.id],
    );
    assert.ok((await activity(store, u)).lists.updated_at > e.lists.updated_at);

    await store.query(
      `insert into public.user_profiles (user_id, handle, display_name) values ($1, $2, 'Ana')`,
      [u, `ana_${u.slice(0, 6)}`],
    );
    const f = await activity(store, u);
    assert.ok(f.account.settings_at > "1970");
    assert.equal(f.shows.rated_at, "1970-01-01T00:00:00.000Z");

    await store.query(
      `insert into public.trakt_playback (user_id, catalog_id, progress, paused_at) values ($1, 603, 40, now())`,
      [u],
    );
    const g = await activity(store, u);
    assert.ok(g.movies.paused_at > "1970");
    await store.query(`delete from public.trakt_playback where user_id = $1`, [u]);
    assert.ok((await activity(store, u)).movies.paused_at > g.movies.paused_at);

    await store.query(`delete from public.user_viewings where user_id = $1`, [u]);
    assert.ok((await activity(store, u)).movies.watched_at > b.movies.watched_at);
  });

  Deno.test(`[${engine}] an account deleted with its rows leaves no activity times behind`, async () => {
    await using store = await testStore(engine);
    await movies(store);
    const u = await user(store);
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, rating) values ($1, 155, 8)`,
      [u],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source) values ($1, 155, '2024-01-01', 'manual')`,
      [u],
    );
    await store.transaction(async (tx) => {
      await tx.query(`select public.delete_user_rows($1)`, [u]);
      await tx.query(`delete from auth.users where id = $1`, [u]);
    });
    const rows = await store.query(`select 1 from public.user_trakt_activity where user_id = $1`, [
      u,
    ]);
    assert.equal(rows.length, 0);
  });

  Deno.test(`[${engine}] users/settings names the user by their profile's handle, or by their id without one`, async () => {
    await using store = await testStore(engine);
    const u = await user(store);
    const bare = await readTraktSettings(store, u);
    assert.equal(bare.user.username, u);
    assert.equal(bare.user.private, true);
    assert.deepEqual(bare.account, { timezone: "UTC", date_format: "mdy", time_24hr: false });
    const handle = `ana_${u.slice(0, 6)}`;
    await store.query(
      `insert into public.user_profiles (user_id, handle, display_name, public) values ($1, $2, 'Ana', true)`,
      [u, handle],
    );
    const named = await readTraktSettings(store, u);
    assert.deepEqual(named.user, {
      username: handle,
      private: false,
      name: "Ana",
      vip: false,
      vip_ep: false,
      ids: { slug: handle },
    });
  });
}

Deno.test("pagination: neither page nor limit is everything; either alone defaults the other (page 1, limit 10); limit 1,000 is the most", () => {
  assert.equal(parsePageAsk({}), null);
  assert.deepEqual(parsePageAsk({ page: "2" }), { page: 2, limit: 10 });
  assert.deepEqual(parsePageAsk({ limit: "1000" }), { page: 1, limit: 1000 });
  assert.deepEqual(parsePageAsk({ limit: "1" }), { page: 1, limit: 1 });
  for (
    const bad of [
      { limit: "1001" },
      { limit: "0" },
      { page: "0" },
      { page: "x" },
      { limit: "-1" },
      { limit: "2.5" },
    ]
  ) {
    assert.throws(() => parsePageAsk(bad), (e: Error & { status?: number }) => e.status === 422);
  }
  assert.deepEqual(paginationHeaders({ page: 2, limit: 10 }, 25), {
    "X-Pagination-Page": "2",
    "X-Pagination-Limit": "10",
    "X-Pagination-Page-Count": "3",
    "X-Pagination-Item-Count": "25",
  });
  assert.equal(paginationHeaders({ page: 1, limit: 10 }, 0)["X-Pagination-Page-Count"], "1");
  assert.deepEqual(paginationHeaders(null, 7), {
    "X-Pagination-Page": "1",
    "X-Pagination-Limit": "7",
    "X-Pagination-Page-Count": "1",
    "X-Pagination-Item-Count": "7",
  });
});
