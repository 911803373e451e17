/**
 * The details job (docs/catalog.md, "The details job"): an imported history matched by title
 * gets true hours, directors and actors once a run has fetched its films; runs take the newest
 * user activity first within the budget, fetch again what an older append set fetched, keep to
 * a quarter of each window, run one at a time, and are asked for by an import's end.
 */
import assert from "node:assert/strict";
import { ASK_DELAY_MS, failInterruptedDetailsRuns } from "@/lib/catalog/details/mod.ts";
import { detailRow } from "@/lib/catalog/normalize.ts";
import { DETAIL_APPENDS } from "@/lib/catalog/tmdb_client.ts";
import { tmdbMovie } from "@/lib/catalog/tmdb_schemas.ts";
import { testApp } from "./helpers/app.ts";
import { detailBody, type FakeTmdb, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { type CatalogMovie, serveCatalog } from "./helpers/history_import_world.ts";
import { SettlingClock } from "./helpers/sent_calls.ts";
import { type Engine, ENGINES, testStore } from "./helpers/store.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const ADMIN = "admin-token-for-details-tests";
const admin = { "x-admin-token": ADMIN };
const DIARY = [
  "Date",
  "Name",
  "Year",
  "Letterboxd URI",
  "Rating",
  "Rewatch",
  "Tags",
  "Watched Date",
];
// What every served film's details give (the fixture's credits), as the store keeps them.
const FETCHED = detailRow(tmdbMovie.parse(detailBody(1)), 0);

async function world(engine: Engine, env: Record<string, string> = {}) {
  const fake = await startFakeTmdb();
  const clock = new SettlingClock("2026-12-06T04:00:00Z");
  const store = await testStore(engine);
  // The job covers every user: on the PostgreSQL database the file's tests share, each test
  // starts from no entries and no runs.
  for (
    const table of [
      "user_list_items",
      "user_my_list",
      "user_watched_movies",
      "details_runs",
      "details_failures",
    ]
  ) {
    await store.query(`delete from public.${table}`);
  }
  // The clock time of each detail call as the service sends it, to count them per window.
  const calls: { id: number; at: number }[] = [];
  const t = await testApp({
    store,
    clock,
    env: { ...tmdbEnv(fake), ADMIN_TOKEN: ADMIN, DETAILS_CRON: "*/10 * * * *", ...env },
    fetch: (input, init) => {
      const id = /\/movie\/(\d+)/.exec(String(input))?.[1];
      if (id) calls.push({ id: Number(id), at: clock.now() });
      return fetch(input, init);
    },
  });
  return {
    fake,
    clock,
    t,
    calls,
    async [Symbol.asyncDispose]() {
      await t.services.details.settled();
      await t.services.historyImport.idle();
      await t[Symbol.asyncDispose]();
      await store.close();
      await fake.close();
    },
  };
}

/** `n` films from `first` that TMDB's search and details know, each 100 minutes long. */
function serveFilms(fake: FakeTmdb, first: number, n: number): CatalogMovie[] {
  const films = Array.from({ length: n }, (_, i) => ({
    id: first + i,
    title: `Filler Picture ${first + i}`,
    release_date: "2020-03-01",
  }));
  serveCatalog(fake, films);
  for (const f of films) {
    fake.movies.set(
      f.id,
      detailBody(f.id, { title: f.title, release_date: f.release_date, runtime: 100 }),
    );
  }
  return films;
}

async function stats(t: Awaited<ReturnType<typeof testApp>>, u: TestUser, year?: number) {
  // A token of the clock's time: the tests move the clock past a token's hour.
  const { token } = await issueAccessToken(t.deps, { id: u.id, email: u.email });
  const res = await t.request(`/api/stats${year ? `?year=${year}` : ""}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200);
  return await res.json();
}

async function runs(t: Awaited<ReturnType<typeof testApp>>) {
  const res = await t.request("/api/admin/details-runs", { headers: admin });
  assert.equal(res.status, 200);
  return (await res.json()).runs;
}

/** Starts a run through the admin route and waits for it to end. */
async function runNow(w: Awaited<ReturnType<typeof world>>) {
  // A second on, so the runs list (newest first) puts this one first.
  w.clock.advance(1000);
  const res = await w.t.request("/api/admin/details-runs", { method: "POST", headers: admin });
  assert.equal(res.status, 202);
  const body = await res.json();
  assert.equal(body.status, "running");
  await w.t.services.details.settled();
  return body.runId as string;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] an imported history matched by title shows true hours, directors and actors once the details job has run`, async () => {
    await using w = await world(engine);
    const { t, fake } = w;
    const N = 40;
    const films = serveFilms(fake, 1_950_000_001, N);
    const u = await createUser(t.deps);
    // While TMDB fails every detail, the run the import asked for fills nothing in.
    fake.override = (req) =>
      req.path.startsWith("/movie/") ? Response.json({}, { status: 500 }) : undefined;
    const file = bytesOf(csvText(
      DIARY,
      films.map((f, i) => [
        "2024-05-02",
        f.title,
        2020,
        `u${i}`,
        "4",
        "",
        "",
        `2024-05-${String(1 + (i % 28)).padStart(2, "0")}`,
      ]),
    ));
    const upload = await t.request("/api/import", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/octet-stream" },
      body: file as Uint8Array<ArrayBuffer>,
    });
    assert.equal(upload.status, 202);
    await upload.body?.cancel();
    await t.services.historyImport.idle();
    await t.services.details.settled();
    const before = await stats(t, u);
    assert.equal(before.films, N);
    assert.equal(before.hours, 0);
    assert.deepEqual(before.directors, []);
    assert.deepEqual(before.actors, []);
    assert.equal(before.incomplete, N);
    const [asked] = await runs(t);
    assert.equal(asked.trigger, "asked");
    assert.equal(asked.status, "succeeded");
    assert.equal(asked.moviesPlanned, N);
    assert.equal(asked.moviesRefreshed, 0);
    assert.equal(asked.errors, N);

    // TMDB answers again: the first run after the films' hour of backoff fills every film in.
    fake.override = undefined;
    w.clock.advance(3_600_000);
    const runId = await runNow(w);
    for (const year of [undefined, 2024]) {
      const after = await stats(t, u, year);
      assert.equal(after.films, N);
      assert.equal(after.incomplete, 0);
      assert.equal(after.hours, Math.round((N * 100) / 6) / 10);
      assert.deepEqual(after.directors, FETCHED.directors!.map((name) => ({ name, count: N })));
      assert.deepEqual(
        after.actors.map((a: { name: string }) => a.name).sort(),
        [...FETCHED.actors!].sort(),
      );
      assert.ok(after.actors.every((a: { count: number }) => a.count === N));
    }
    const [done] = await runs(t);
    assert.equal(done.id, runId);
    assert.deepEqual(
      { ...done, startedAt: undefined, finishedAt: undefined },
      {
        id: runId,
        trigger: "manual",
        status: "succeeded",
        budget: 5000,
        startedAt: undefined,
        finishedAt: undefined,
        moviesPlanned: N,
        moviesRefreshed: N,
        calls: N,
        errors: 0,
        lastError: null,
      },
    );
    // At most a quarter of each window: 10 of the 40 places in any second of the clock.
    const perWindow = new Map<number, number>();
    for (const c of w.calls.slice(-N)) {
      const second = Math.floor(c.at / 1000);
      perWindow.set(second, (perWindow.get(second) ?? 0) + 1);
    }
    assert.ok(Math.max(...perWindow.values()) <= 10, JSON.stringify([...perWindow.values()]));
    // Stored with the appends of the one movie-by-id call.
    const [row] = await t.store.query<Record<string, unknown>>(
      `select details_appends, imdb_id, cardinality(keywords) as keywords,
              release_dates ? 'US' as us
         from public.movies where catalog_id = $1`,
      [films[0].id],
    );
    assert.deepEqual(row, {
      details_appends: DETAIL_APPENDS,
      imdb_id: "tt1659337",
      keywords: 15,
      us: true,
    });
    // Nothing left: the next run plans nothing and makes no call.
    const calls = w.calls.length;
    await runNow(w);
    assert.equal((await runs(t))[0].moviesPlanned, 0);
    assert.equal(w.calls.length, calls);
  });

  Deno.test(`[${engine}] a run takes the newest user activity first within its budget, fetches again what an older append set fetched, and the next run does the rest`, async () => {
    await using w = await world(engine, { DETAILS_BUDGET: "2" });
    const { t, fake } = w;
    const [X, Y, Z, V, W] = [
      1_950_100_001,
      1_950_100_002,
      1_950_100_003,
      1_950_100_004,
      1_950_100_005,
    ];
    for (const id of [X, Y, Z, V, W]) fake.movies.set(id, detailBody(id, { title: `Film ${id}` }));
    const u = await createUser(t.deps);
    const at = (hours: number) => new Date(w.clock.now() - hours * 3_600_000).toISOString();
    // W complete with today's appends (never fetched); V complete with an older set (fetched
    // again); Z a light row; Y and X not stored at all.
    await t.store.query(`delete from public.movies where catalog_id = any($1::integer[])`, [
      [X, Y, Z, V, W],
    ]);
    await t.store.query(
      `insert into public.movies (catalog_id, title, has_details, runtime, actors, directors,
         details_appends)
       values ($1, 'W', true, 90, '{}', '{}', $3), ($2, 'V', true, 90, '{}', '{}',
         'credits,videos,watch/providers'), ($4, 'Z', false, null, null, null, null)`,
      [W, V, DETAIL_APPENDS, Z],
    );
    // Activity: W newest, then V (watched), Z (an own list's item), Y (a diary viewing of a film
    // watched long ago), X (My List, oldest).
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, watched_on)
       values ($1, $2, $3, '2025-01-01'), ($1, $4, $5, '2025-01-01'), ($1, $6, $7, '2025-01-01')`,
      [u.id, W, at(1), V, at(2), Y, at(100)],
    );
    await t.store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
       values ($1, $2, '2025-02-01', 'manual', $3)`,
      [u.id, Y, at(4)],
    );
    const [list] = await t.store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name) values ($1, 'Mine') returning id`,
      [u.id],
    );
    await t.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position, added_at)
       values ($1, $2, 1, $3)`,
      [list.id, Z, at(3)],
    );
    await t.store.query(
      `insert into public.user_my_list (user_id, catalog_ids, updated_at) values ($1, $2, $3)`,
      [u.id, [X], at(5)],
    );
    const fetched = () => w.calls.map((c) => c.id).sort();
    await runNow(w);
    assert.deepEqual(fetched(), [Z, V].sort(), "the two newest of the incomplete");
    assert.equal((await runs(t))[0].calls, 2);
    await runNow(w);
    assert.deepEqual(fetched(), [Z, V, Y, X].sort(), "the next run does the rest");
    await runNow(w);
    assert.deepEqual(fetched(), [Z, V, Y, X].sort(), "then nothing is left");
    assert.equal((await runs(t))[0].moviesPlanned, 0);
    // The stats count the films still without details: none, and V's old set never counted.
    assert.equal((await stats(t, u)).incomplete, 0);
  });

  Deno.test(`[${engine}] a film whose fetch failed waits 1 h, doubling to at most 7 days, before a run fetches it again; TMDB's 404 starts at a day; a success forgets it`, async () => {
    await using w = await world(engine);
    const { t, fake } = w;
    const [BROKEN, GONE] = [1_950_400_001, 1_950_400_002];
    fake.movies.set(BROKEN, detailBody(BROKEN, { title: "Broken", runtime: 100 }));
    // GONE is unknown to the fake: TMDB's real 404 body.
    fake.movies.delete(GONE);
    let down = true;
    fake.override = (req) =>
      down && req.path === `/movie/${BROKEN}` ? Response.json({}, { status: 500 }) : undefined;
    const u = await createUser(t.deps);
    await t.store.query(`delete from public.movies where catalog_id = any($1::integer[])`, [
      [BROKEN, GONE],
    ]);
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id)
       select $1, unnest($2::integer[])`,
      [u.id, [BROKEN, GONE]],
    );
    const fetched = () => w.calls.map((c) => c.id);
    const failure = async (id: number) => {
      const rows = await t.store.query<{ failures: number; wait: number; retry: number }>(
        `select failures,
                (extract(epoch from retry_at - failed_at) * 1000)::float8 as wait,
                (extract(epoch from retry_at) * 1000)::float8 as retry
           from public.details_failures where catalog_id = $1`,
        [id],
      );
      return rows[0] ? { ...rows[0], retry: Math.round(rows[0].retry) } : undefined;
    };
    // A run whose clock reads `at` when it plans (runNow moves the clock a second first).
    const runAt = (at: number) => {
      w.clock.advance(at - 1000 - w.clock.now());
      return runNow(w);
    };
    // Runs at the retry time minus 1 ms fetch nothing; at it, the film again.
    const edge = async (id: number) => {
      const { retry } = (await failure(id))!;
      const before = fetched().length;
      await runAt(retry - 1);
      assert.equal(fetched().length, before, `${id} left alone until ${retry}`);
      assert.equal((await runs(t))[0].moviesPlanned, 0);
      await runAt(retry);
      assert.deepEqual(fetched().slice(before), [id]);
    };

    await runNow(w);
    assert.deepEqual(fetched().sort(), [BROKEN, GONE].sort());
    assert.equal((await runs(t))[0].errors, 2);
    assert.deepEqual(
      { ...(await failure(BROKEN)), retry: 0 },
      { failures: 1, wait: 3_600_000, retry: 0 },
    );
    assert.deepEqual(
      { ...(await failure(GONE)), retry: 0 },
      { failures: 1, wait: 86_400_000, retry: 0 },
    );
    await edge(BROKEN);
    assert.equal((await failure(BROKEN))?.wait, 2 * 3_600_000);
    await edge(BROKEN);
    assert.equal((await failure(BROKEN))?.wait, 4 * 3_600_000);
    // TMDB answers again: the next try stores the film and forgets its failures.
    down = false;
    await edge(BROKEN);
    assert.equal(await failure(BROKEN), undefined);
    // A film TMDB says does not exist is still missing its details, so still counted.
    assert.equal((await stats(t, u)).incomplete, 1);

    await edge(GONE);
    assert.equal((await failure(GONE))?.wait, 2 * 86_400_000);
    await edge(GONE);
    assert.equal((await failure(GONE))?.wait, 4 * 86_400_000);
    // The doubling past 7 days stops at 7 days.
    await edge(GONE);
    assert.deepEqual(
      { ...(await failure(GONE)), retry: 0 },
      { failures: 4, wait: 7 * 86_400_000, retry: 0 },
    );
    await edge(GONE);
    assert.equal((await failure(GONE))?.wait, 7 * 86_400_000);
  });

  Deno.test(`[${engine}] one details run at a time: a second start is 409, a body is 400, a run a restart cut off is marked failed`, async () => {
    await using w = await world(engine);
    const { t, fake } = w;
    const films = serveFilms(fake, 1_950_200_001, 3);
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id)
       select $1, unnest($2::integer[])`,
      [u.id, films.map((f) => f.id)],
    );
    // TMDB holds the first detail until the test lets it go.
    const gate = Promise.withResolvers<void>();
    fake.override = async (req) => {
      if (req.path.startsWith("/movie/")) await gate.promise;
      return undefined;
    };
    const first = await t.request("/api/admin/details-runs", { method: "POST", headers: admin });
    assert.equal(first.status, 202);
    await first.body?.cancel();
    const second = await t.request("/api/admin/details-runs", { method: "POST", headers: admin });
    assert.equal(second.status, 409);
    assert.equal((await second.json()).code, "details_running");
    const bad = await t.request("/api/admin/details-runs", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ budget: 1 }),
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "invalid_body");
    const noToken = await t.request("/api/admin/details-runs");
    assert.equal(noToken.status, 401);
    await noToken.body?.cancel();
    // While it runs, a restart's recovery leaves it alone (its lease is held).
    assert.deepEqual(await failInterruptedDetailsRuns(t.deps), []);
    gate.resolve();
    await t.services.details.settled();
    assert.equal((await runs(t))[0].moviesRefreshed, 3);
    // A row still running with nobody holding the lease lost its process.
    const id = crypto.randomUUID();
    await t.store.query(
      `insert into public.details_runs (id, trigger, budget, started_at) values ($1, 'cron', 5, $2)`,
      [id, new Date(w.clock.now() - 60_000).toISOString()],
    );
    assert.deepEqual(await failInterruptedDetailsRuns(t.deps), [id]);
    const cut = (await runs(t)).find((r: { id: string }) => r.id === id);
    assert.equal(cut.status, "failed");
    assert.equal(cut.lastError, "interrupted by a restart");
  });

  Deno.test(`[${engine}] asks for a run coalesce into one run ${ASK_DELAY_MS / 1000} s later; with DETAILS_CRON=off they start nothing`, async () => {
    await using w = await world(engine);
    const { t, fake } = w;
    const films = serveFilms(fake, 1_950_300_001, 2);
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id)
       select $1, unnest($2::integer[])`,
      [u.id, films.map((f) => f.id)],
    );
    const asked = w.clock.now();
    t.services.details.ask();
    t.services.details.ask();
    t.services.details.ask();
    await t.services.details.settled();
    const all = await runs(t);
    assert.equal(all.length, 1);
    assert.equal(all[0].trigger, "asked");
    assert.equal(all[0].moviesRefreshed, 2);
    assert.ok(Date.parse(all[0].startedAt) >= asked + ASK_DELAY_MS);

    await using off = await world(engine, { DETAILS_CRON: "off" });
    off.t.services.details.ask();
    await off.t.services.details.settled();
    assert.deepEqual(await runs(off.t), []);
  });
}
