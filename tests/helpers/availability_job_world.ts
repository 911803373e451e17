/**
 * The availability job's test world: a fake TMDB whose providers a test changes between runs, a
 * fake clock, the app, and the calls it sends (each at its clock time, to count per window).
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./app.ts";
import { detailBody, type FakeTmdb, startFakeTmdb, tmdbEnv } from "./fake_tmdb.ts";
import { SettlingClock } from "./sent_calls.ts";
import { type Engine, testStore } from "./store.ts";
import { issueAccessToken } from "./tokens.ts";
import type { TestUser } from "./users.ts";

/** A fresh token for `user`. */
// Tokens last an hour of the fake clock, which the runs move by days: each request gets a new one.
async function headersOf(t: TestApp, user: TestUser) {
  const { token } = await issueAccessToken(t.deps, { id: user.id, email: user.email });
  return { authorization: `Bearer ${token}` };
}

/** The admin token of the world. */
export const ADMIN = "admin-token-for-availability-tests";

/** The world of one test; dispose it with `await using`. */
export async function world(engine: Engine, env: Record<string, string> = {}) {
  const fake = await startFakeTmdb();
  const clock = new SettlingClock("2026-11-01T04:00:00Z");
  const store = await testStore(engine);
  // The job covers every user: on the PostgreSQL test database, shared by the test files, it
  // starts from nobody with services and no runs (test files run one after another).
  await store.query(`delete from public.user_services`);
  await store.query(`delete from public.availability_runs`);
  // The time of each call as the service sends it, by its clock, so calls are counted per
  // window as the window tests count them.
  const calls: number[] = [];
  const t = await testApp({
    store,
    clock,
    env: { ...tmdbEnv(fake), ADMIN_TOKEN: ADMIN, ...env },
    fetch: (input, init) => {
      if (String(input).includes("/movie/")) calls.push(clock.now());
      return fetch(input, init);
    },
  });
  return {
    fake,
    clock,
    t,
    calls,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await store.close();
      await fake.close();
    },
  };
}

/** TMDB serves `id` with these providers (its `results`). */
export function serve(fake: FakeTmdb, id: number, results: Record<string, unknown>) {
  fake.movies.set(id, detailBody(id, { "watch/providers": { results } }));
}

/** PUT /api/me/services as `user`. */
export async function choose(t: TestApp, user: TestUser, body: unknown) {
  const res = await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...await headersOf(t, user), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
}

/** Sets `user`'s My List. */
export async function save(t: TestApp, user: TestUser, ids: number[]) {
  await t.store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2::integer[])
     on conflict (user_id) do update set catalog_ids = excluded.catalog_ids`,
    [user.id, ids],
  );
}

/** GET /api/notifications as `user`. */
export async function notes(t: TestApp, user: TestUser, query = "") {
  const res = await t.request(`/api/notifications${query}`, { headers: await headersOf(t, user) });
  assert.equal(res.status, 200);
  return await res.json();
}

/** Runs the job once and waits for its outcome. */
export async function runOnce(t: TestApp) {
  const { done } = await t.services.availability.start();
  return await done;
}
