import assert from "node:assert/strict";
import { applyBatch } from "../lib/library/history/import/apply.ts";
import type { ImportUnit } from "../lib/library/history/import/units.ts";
import { MAX_MY_LIST, MAX_WATCHED } from "../lib/library/entries/limits.ts";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function send(u: TestUser, path: string, method: string, body: unknown): [string, RequestInit] {
  return [path, {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  }];
}

// Seeded by SQL: ids 1..count, one second apart, so an edge is reached without 100,000 calls
// (in slices, each well inside the store's statement deadline).
// Rows a seeding statement inserts: the kept figures' triggers (docs/diary.md, docs/entries.md)
// cost a 20,000-row statement 4.4-4.7 s on PostgreSQL, against its 4.75 s statement timeout, and
// CI's busier machine went past it; 2,000 take about half a second.
const SEED_ROWS = 2_000;

async function seedWatched(store: Store, userId: string, count: number) {
  for (let from = 1; from <= count; from += SEED_ROWS) {
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at)
       select $1::uuid, g, timestamptz '2020-01-01' + g * interval '1 second'
         from generate_series($2::int, $3::int) g`,
      [userId, from, Math.min(count, from + SEED_ROWS - 1)],
    );
  }
}

async function seedMyList(store: Store, userId: string, count: number) {
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids)
     select $1::uuid, array_agg(g order by g) from generate_series(500001, 500000 + $2::int) g`,
    [userId, count],
  );
}

async function status(res: Response): Promise<[number, string | undefined]> {
  const body = await res.json();
  return [res.status, body.code];
}

async function countWatched(store: Store, userId: string): Promise<number> {
  const [row] = await store.query<{ n: number }>(
    `select count(*)::int as n from public.user_watched_movies where user_id = $1`,
    [userId],
  );
  return Number(row.n);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the watched list takes its 100,000th film and answers 400 list_full past it, on the API and the diary`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedWatched(t.store, u.id, MAX_WATCHED - 1);
    const id = 2_000_000;
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/watched", "POST", { catalogId: id }))),
      [200, undefined],
    );
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/watched", "POST", { catalogId: id + 1 }))),
      [400, "list_full"],
    );
    const diary = await t.request(
      ...send(u, "/api/diary", "POST", { catalogId: id + 2, watchedOn: "2026-01-01" }),
    );
    assert.deepEqual(await status(diary), [400, "list_full"]);
    // A film already on the list adds nothing, so rating it again still works.
    assert.deepEqual(
      await status(
        await t.request(...send(u, "/api/watched", "POST", { catalogId: 5, rating: 8 })),
      ),
      [200, undefined],
    );
    assert.equal(await countWatched(t.store, u.id), MAX_WATCHED);
    // Making room lets the next one in.
    (await t.request(...send(u, "/api/watched", "DELETE", { catalogId: 5 }))).body?.cancel();
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/watched", "POST", { catalogId: id + 1 }))),
      [200, undefined],
    );
    assert.equal(await countWatched(t.store, u.id), MAX_WATCHED);
  });

  Deno.test(`[${engine}] My List takes its 10,000th film and answers 400 list_full past it`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedMyList(t.store, u.id, MAX_MY_LIST - 1);
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/mylist", "POST", { catalogId: 900_001 }))),
      [200, undefined],
    );
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/mylist", "POST", { catalogId: 900_002 }))),
      [400, "list_full"],
    );
    assert.deepEqual(
      await status(await t.request(...send(u, "/api/mylist", "POST", { catalogId: 500_007 }))),
      [200, undefined],
    );
    const [row] = await t.store.query<{ n: number }>(
      `select cardinality(catalog_ids) as n from public.user_my_list where user_id = $1`,
      [u.id],
    );
    assert.equal(Number(row.n), MAX_MY_LIST);
  });

  Deno.test(`[${engine}] an import past the limits adds what fits and counts the rest as skipped for list_full`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedWatched(t.store, u.id, MAX_WATCHED - 1);
    await seedMyList(t.store, u.id, MAX_MY_LIST - 1);
    const watched = (title: string, rows = 1): ImportUnit => ({
      title,
      rows,
      watched: true,
      listed: 0,
      viewings: [{ on: "2025-05-05" }],
    });
    const listed = (title: string): ImportUnit => ({ title, rows: 1, watched: false, listed: 1 });
    const counts = await applyBatch(t.store, u.id, [
      { unit: watched("fits"), id: 3_000_001 },
      { unit: watched("past the limit", 2), id: 3_000_002 },
      { unit: watched("already watched"), id: 10 },
      { unit: listed("fits on My List"), id: 3_000_010 },
      { unit: listed("past My List's limit"), id: 3_000_011 },
    ], { now: t.clock.now() });
    assert.deepEqual(counts, { added: 2, updated: 0, skipped: 3, listFull: 3, tooManyViewings: 0 });
    assert.equal(await countWatched(t.store, u.id), MAX_WATCHED);
    const past = await t.store.query(
      `select 1 from public.user_watched_movies where user_id = $1 and catalog_id = 3000002
       union all
       select 1 from public.user_viewings where user_id = $1 and catalog_id = 3000002`,
      [u.id],
    );
    assert.equal(past.length, 0);
    const [row] = await t.store.query<{ n: number; last: number }>(
      `select cardinality(catalog_ids) as n, catalog_ids[cardinality(catalog_ids)] as last
         from public.user_my_list where user_id = $1`,
      [u.id],
    );
    assert.deepEqual([Number(row.n), Number(row.last)], [MAX_MY_LIST, 3_000_010]);
  });
}

Deno.test("the OpenAPI document names list_full on every write that can fill a list", () => {
  // deno-lint-ignore no-explicit-any
  const doc = buildOpenApiDocument() as any;
  for (const path of ["/api/watched", "/api/mylist", "/api/diary"]) {
    assert.match(doc.paths[path].post.responses["400"].description, /list_full/, path);
  }
});
