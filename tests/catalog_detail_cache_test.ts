import assert from "node:assert/strict";
import { DetailCache } from "../lib/catalog/detail_cache.ts";
import { DETAIL_TTL_MS } from "../lib/catalog/movies_store.ts";
import type { MovieDetail } from "../lib/catalog/types.ts";
import { getJson, testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const DAY = 24 * 60 * 60 * 1000;
const PERKS = 84892;

function detailCalls(fake: { requests: { path: string }[] }): number {
  return fake.requests.filter((r) => /^\/movie\/\d+$/.test(r.path)).length;
}

async function insertRow(
  t: { store: { query(text: string, params?: unknown[]): Promise<unknown> } },
  id: number,
  options: { cachedAt: number; hasDetails: boolean },
) {
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, release_date, poster_path, genres,
       overview, vote_average, runtime, actors, directors, trailer_url, has_details, cached_at)
     values ($1, 'Stored Title', 2012, '2012-09-20', '/stored.jpg', '{Drama}', 'Stored.', 7.25,
       $2, $3, $4, null, $5, $6)`,
    [
      id,
      options.hasDetails ? 100 : null,
      options.hasDetails ? ["Stored Actor"] : null,
      options.hasDetails ? ["Stored Director"] : null,
      options.hasDetails,
      new Date(options.cachedAt).toISOString(),
    ],
  );
}

Deno.test("a fresh complete stored row answers with no external call", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  await insertRow(t, PERKS, { cachedAt: t.clock.now() - 89 * DAY, hasDetails: true });
  const res = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.title, "Stored Title");
  assert.deepEqual(res.body.actors, ["Stored Actor"]);
  assert.equal(res.body.rating, 7.3);
  assert.equal(fake.requests.length, 0);
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "40");
});

for (
  const [name, setup] of [
    ["a missing row", () => Promise.resolve()],
    [
      "a stale row (older than 90 days)",
      (t: Awaited<ReturnType<typeof testApp>>) =>
        insertRow(t, PERKS, { cachedAt: t.clock.now() - 91 * DAY, hasDetails: true }),
    ],
    [
      "a light row (no details yet)",
      (t: Awaited<ReturnType<typeof testApp>>) =>
        insertRow(t, PERKS, { cachedAt: t.clock.now(), hasDetails: false }),
    ],
  ] as const
) {
  Deno.test(`${name}: one external call, stored, then fresh with no call`, async () => {
    await using fake = await startFakeTmdb();
    await using t = await testApp({ env: tmdbEnv(fake) });
    await setup(t);
    const first = await getJson(t, `/api/movies/${PERKS}`);
    assert.equal(first.status, 200);
    assert.equal(first.body.title, "The Perks of Being a Wallflower");
    assert.equal(detailCalls(fake), 1);
    assert.equal(
      fake.requests[0].query.get("append_to_response"),
      "credits,videos,watch/providers,release_dates,keywords,external_ids",
    );
    assert.equal(first.headers.get("x-ratelimit-remaining"), "39");

    const [row] = await t.store.query<{ has_details: boolean; runtime: number; fresh: boolean }>(
      `select has_details, runtime, cached_at = $2::timestamptz as fresh
         from public.movies where catalog_id = $1`,
      [PERKS, new Date(t.clock.now()).toISOString()],
    );
    assert.deepEqual(row, { has_details: true, runtime: 103, fresh: true });

    // A second app on the same store has a cold in-process cache: the store answers.
    await using again = await testApp({ env: tmdbEnv(fake), store: t.store, clock: t.clock });
    const second = await getJson(again, `/api/movies/${PERKS}`);
    assert.deepEqual(second.body, first.body);
    assert.equal(detailCalls(fake), 1);
  });
}

Deno.test("the in-process cache answers hot details with no query, and honours 90 days", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  await getJson(t, `/api/movies/${PERKS}`);
  const before = t.store.stats.queries;
  const hot = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(hot.status, 200);
  assert.equal(t.store.stats.queries, before);
  assert.equal(detailCalls(fake), 1);

  clock.advance(DETAIL_TTL_MS - 1);
  await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(detailCalls(fake), 1);
  clock.advance(1);
  const stale = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(stale.status, 200);
  assert.equal(detailCalls(fake), 2);
});

Deno.test("a hot detail answers the same body and window headers at once or through KV", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  const first = await getJson(t, `/api/movies/${PERKS}`);
  // Answered at once while the window's headers are known, and through KV once they lapse: the
  // same detail and headers either way.
  const atOnce = await t.request(`/api/movies/${PERKS}`);
  clock.advance(300);
  const viaKv = await t.request(`/api/movies/${PERKS}`);
  // The id written with a leading zero skips the hot probe and is parsed: the same answer.
  const padded = await t.request(`/api/movies/0${PERKS}`);
  for (const res of [atOnce, viaKv, padded]) {
    assert.deepEqual(await res.json(), first.body);
    assert.equal(res.headers.get("x-ratelimit-limit"), "40");
    assert.equal(res.headers.get("x-ratelimit-remaining"), "39");
  }
  assert.equal(detailCalls(fake), 1);
});

Deno.test("an id TMDB does not know is 404 movie_not_found, and nothing is stored", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const res = await getJson(t, "/api/movies/999999999");
  assert.equal(res.status, 404);
  assert.equal(res.body.code, "movie_not_found");
  assert.equal(res.headers.get("content-type"), "application/problem+json; charset=utf-8");
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  const rows = await t.store.query(`select 1 from public.movies where catalog_id = 999999999`);
  assert.equal(rows.length, 0);
});

Deno.test("ids that are not positive integers up to 2^31-1 are 400 invalid_catalog_id", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (const id of ["0", "-1", "abc", "1.5", "1e3", "2147483648", "99999999999", "%20"]) {
    const res = await getJson(t, `/api/movies/${id}`);
    assert.equal(res.status, 400, id);
    assert.equal(res.body.code, "invalid_catalog_id", id);
  }
  assert.equal((await getJson(t, "/api/movies/2147483647")).status, 404);
  assert.equal(fake.requests.length, 1);
});

Deno.test("a stale complete row is served when TMDB fails, and fetched again later", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  await insertRow(t, PERKS, { cachedAt: t.clock.now() - 100 * DAY, hasDetails: true });
  fake.override = () => Response.json({ status_code: 43 }, { status: 502 });
  const res = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.title, "Stored Title");
  fake.override = undefined;
  const later = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(later.body.title, "The Perks of Being a Wallflower");
  assert.equal(detailCalls(fake), 2);
});

Deno.test("with no stored row, a TMDB outage is 500 upstream_error", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json({ status_code: 43 }, { status: 502 });
  const res = await getJson(t, `/api/movies/${PERKS}`);
  assert.equal(res.status, 500);
  assert.equal(res.body.code, "upstream_error");
});

Deno.test("the detail cache evicts the least recently read, and a read keeps an entry", () => {
  const detail = (id: number) => ({ id }) as unknown as MovieDetail;
  const cache = new DetailCache(8);
  for (let id = 1; id <= 8; id++) cache.set(id, detail(id), 1_000);
  // 1 is the oldest entry; reading it puts it behind the seven others.
  assert.equal(cache.get(1, 0)?.id, 1);
  cache.set(9, detail(9), 1_000);
  assert.equal(cache.size, 8);
  assert.equal(cache.get(1, 0)?.id, 1, "the entry read survives");
  assert.equal(cache.get(2, 0), undefined, "the least recently used goes first");
  // An expired entry answers nothing and is dropped.
  assert.equal(cache.get(3, 1_000), undefined);
  assert.equal(cache.size, 7);
});
