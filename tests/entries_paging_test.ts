import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

type App = Awaited<ReturnType<typeof testApp>>;

const WATCHED_QUERIES = [
  "",
  "sort=added&order=asc",
  "sort=watched_on",
  "sort=watched_on&order=asc",
  "sort=rating",
  "sort=rating&order=asc",
  "sort=title",
  "sort=title&order=desc",
  "sort=year",
  "sort=year&order=asc",
  "sort=runtime",
  "sort=runtime&order=asc",
  "genre=drama",
  "rated=false&sort=rating",
  "include=entry&sort=watched_on",
];

const MY_LIST_QUERIES = [
  "",
  "sort=saved&order=desc",
  "sort=title",
  "sort=title&order=desc",
  "sort=year",
  "sort=year&order=asc",
  "sort=runtime",
  "genre=drama&sort=title",
];

const ids = (body: { movies: { catalogId: number }[] }) => body.movies.map((m) => m.catalogId);

async function getJson(t: App, u: TestUser, path: string) {
  const res = await t.request(path, { headers: u.headers });
  const body = await res.json();
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`);
  return body;
}

// Every page of `path?query` at `limit`, followed by nextCursor to the end.
async function allPages(
  t: App,
  u: TestUser,
  path: string,
  options: { query: string; limit: number },
) {
  const pages: { movies: { catalogId: number }[]; nextCursor: string | null; total: number }[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(options.query);
    params.set("limit", String(options.limit));
    if (cursor) params.set("cursor", cursor);
    const body = await getJson(t, u, `${path}?${params}`);
    pages.push(body);
    cursor = body.nextCursor;
    assert.ok(pages.length <= 20, "paging ends");
  } while (cursor);
  return pages;
}

// Extra watched rows sharing one instant, so ties of created_at page by catalog id.
async function seedTies(t: App, userId: string) {
  await t.store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on)
     select $1::uuid, g, timestamptz '2026-01-01 00:03:00', 9, date '2024-01-05'
       from generate_series(11, 14) g`,
    [userId],
  );
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] paging through every sort with limit and cursor gives the whole list, no gap or repeat, with its total`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    await seedTies(t, watcher.id);
    const cases = [
      ...WATCHED_QUERIES.map((q) => ["/api/watched", q, watcher] as const),
      ...MY_LIST_QUERIES.map((q) => ["/api/mylist", q, saver] as const),
    ];
    for (const [path, query, user] of cases) {
      const whole = await getJson(t, user, `${path}?${query}`);
      assert.deepEqual(Object.keys(whole).sort(), ["movies", "success"], "unpaged stays the same");
      for (const limit of [1, 2, 3, 500]) {
        const pages = await allPages(t, user, path, { query, limit });
        const label = `${path}?${query} limit ${limit}`;
        assert.deepEqual(pages.flatMap(ids), ids(whole), label);
        assert.deepEqual(pages.flatMap((p) => p.movies), whole.movies, `${label}: same cards`);
        for (const page of pages) assert.equal(page.total, whole.movies.length, label);
        assert.ok(
          pages.every((p, i) =>
            p.movies.length === (i < pages.length - 1 ? limit : p.movies.length)
          ),
        );
        assert.equal(pages.at(-1)!.nextCursor, null, label);
      }
    }
  });

  Deno.test(`[${engine}] a page read after the list changed starts right after the cursor`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    const first = await getJson(t, watcher, "/api/watched?limit=3");
    assert.deepEqual(ids(first), [7, 6, 5]);
    assert.equal(first.total, 7);
    // A new film (newest, so before the cursor) and the cursor's own card removed.
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at)
       values ($1, 99, '2026-06-01')`,
      [watcher.id],
    );
    await t.store.query(
      `delete from public.user_watched_movies where user_id = $1 and catalog_id = 5`,
      [watcher.id],
    );
    const cursor = encodeURIComponent(first.nextCursor);
    const next = await getJson(t, watcher, `/api/watched?limit=3&cursor=${cursor}`);
    assert.deepEqual(ids(next), [4, 3, 2]);
    assert.equal(next.total, 7);
    // My List: the cursor's card leaves; the next page starts with the card after it.
    const saved = await getJson(t, saver, "/api/mylist?limit=2");
    assert.deepEqual(ids(saved), [3, 1]);
    await t.request("/api/mylist", {
      method: "DELETE",
      headers: { ...saver.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 1 }),
    }).then((r) => r.body?.cancel());
    const rest = await getJson(t, saver, `/api/mylist?limit=10&cursor=${saved.nextCursor}`);
    assert.deepEqual(ids(rest), [5, 2, 4, 7]);
  });

  Deno.test(`[${engine}] limit outside 1-500 and a cursor not given for this list and sort are 400 invalid_query`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    const good = await getJson(t, watcher, "/api/watched?limit=1&sort=title");
    const mine = await getJson(t, saver, "/api/mylist?limit=1");
    assert.equal((await getJson(t, watcher, "/api/watched?limit=500")).movies.length, 7);
    const onlyCursor = await getJson(
      t,
      watcher,
      `/api/watched?sort=title&cursor=${good.nextCursor}`,
    );
    assert.equal(onlyCursor.movies.length, 6);
    const forged = btoa(JSON.stringify(["title:asc", null, "2024-02-30T00:00:00.000000Z", 1]));
    const bad: [TestUser, string][] = [
      [watcher, "limit=0"],
      [watcher, "limit=501"],
      [watcher, "limit=-1"],
      [watcher, "limit=1.5"],
      [watcher, "limit=abc"],
      [watcher, "limit="],
      [watcher, "limit=010"],
      [watcher, "limit=1&limit=2"],
      [watcher, "cursor="],
      [watcher, "cursor=not-a-cursor"],
      [watcher, `cursor=${"A".repeat(1201)}`],
      // Another sort's cursor, another list's cursor, a forged date.
      [watcher, `sort=year&cursor=${good.nextCursor}`],
      [watcher, `sort=title&order=desc&cursor=${good.nextCursor}`],
      [watcher, `cursor=${mine.nextCursor}`],
      [saver, `sort=title&cursor=${good.nextCursor}`],
      [watcher, `sort=title&cursor=${forged.replace(/=+$/, "")}`],
    ];
    for (const [user, query] of bad) {
      const path = user === watcher ? "/api/watched" : "/api/mylist";
      const res = await t.request(`${path}?${query}`, { headers: user.headers });
      const body = await res.json();
      assert.equal(res.status, 400, `${path}?${query}`);
      assert.equal(body.code, "invalid_query", query);
      assert.match(res.headers.get("content-type") ?? "", /problem\+json/);
    }
  });
}
