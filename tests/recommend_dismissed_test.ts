import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { recommendationsContent } from "./helpers/fake_ai.ts";
import { POOL, type RecommendWorld, recommendWorld } from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";

type World = RecommendWorld;

async function send(w: World, method: string, body: unknown, headers = w.user.headers) {
  return await w.t.request("/api/recommend/dismissed", {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function dismissedOf(w: World): Promise<number[]> {
  return (await (await w.get("/api/recommend/dismissed")).json()).catalogIds;
}

const film = (id: number) => POOL[id - 1];

Deno.test("POST, GET and DELETE /api/recommend/dismissed: dismiss, list newest first, undo", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  assert.deepEqual(await dismissedOf(w), []);
  let res = await send(w, "POST", { catalogId: 30 });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { success: true });
  clock.advance(1000);
  assert.equal((await send(w, "POST", { movie: { catalogId: 31 } })).status, 200);
  // A repeat changes nothing.
  assert.equal((await send(w, "POST", { catalogId: 30 })).status, 200);
  assert.deepEqual(await dismissedOf(w), [31, 30]);
  res = await send(w, "DELETE", { catalogId: 31 });
  assert.deepEqual(await res.json(), { success: true });
  assert.deepEqual(await dismissedOf(w), [30]);
  // Undoing what is not dismissed is not an error.
  assert.equal((await send(w, "DELETE", { catalogId: 999 })).status, 200);
});

Deno.test("/api/recommend/dismissed refuses a bad payload, no token and other methods", async () => {
  await using w = await recommendWorld();
  for (const body of [{ catalogId: "30" }, { catalogId: 0 }, { catalogId: 1.5 }, "not json", {}]) {
    const res = await send(w, "POST", body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match((await res.json()).code, /^invalid_/);
  }
  const anonymous = await w.t.request("/api/recommend/dismissed", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ catalogId: 30 }),
  });
  assert.equal(anonymous.status, 401);
  const put = await w.t.request("/api/recommend/dismissed", {
    method: "PUT",
    headers: w.user.headers,
  });
  assert.equal(put.status, 405);
  assert.deepEqual(await dismissedOf(w), []);
});

Deno.test("a dismissed movie leaves the stored set at once; the cached answer and current drop it", async () => {
  await using w = await recommendWorld();
  const first = await (await w.get("/api/recommend")).json();
  assert.deepEqual(first.recommendations, [15, 16, 17, 18, 19, 20, 11, 12]);
  assert.equal((await send(w, "POST", { catalogId: 16 })).status, 200);
  const cached = await (await w.get("/api/recommend")).json();
  assert.equal(cached.cached, true);
  assert.deepEqual(cached.recommendations, [15, 17, 18, 19, 20, 11, 12]);
  const current = await (await w.get("/api/recommend/current")).json();
  assert.deepEqual(current.recommendations.map((r: { catalogId: number }) => r.catalogId), [
    15,
    17,
    18,
    19,
    20,
    11,
    12,
  ]);
  assert.equal(current.fresh, true);
  assert.equal(w.ai.requests.length, 1);
});

Deno.test("a dismissed id is never recommended again: default, refresh and getNew", async () => {
  await using w = await recommendWorld();
  for (const id of [21, 22, 23]) {
    assert.equal((await send(w, "POST", { catalogId: id })).status, 200);
  }
  // An AI that ignores the "not interested" list and names the dismissed movies first.
  const stubborn = () => ({
    content: recommendationsContent([21, 22, 23, 24, 25, 26, 27, 28, 29, 30].map(film)),
  });
  w.ai.fallback = stubborn;
  for (const path of ["/api/recommend", "/api/recommend?refresh=1", "/api/recommend?getNew=1"]) {
    const res = await w.get(path);
    const body = await res.json();
    const ids: number[] = body.stale ? body.staleRecommendations : body.recommendations;
    assert.equal(res.status, 200, path);
    for (const id of [21, 22, 23]) assert.ok(!ids.includes(id), `${path} returned ${id}`);
  }
  // The prompt names them as "not interested" (titles only, newest first).
  const prompt = w.ai.requests[0].body.messages[1].content as string;
  const section = prompt.split("Not interested")[1];
  assert.ok(section, prompt);
  assert.match(section, /- Film 23 \(2013\)\n- Film 22 \(2012\)\n- Film 21 \(2011\)/);
  assert.ok(!prompt.includes(w.user.email));
});

Deno.test("the prompt lists at most 30 dismissed titles", async () => {
  await using w = await recommendWorld();
  const ids = Array.from({ length: 40 }, (_, i) => i + 15);
  await w.t.store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id, created_at)
     select $1, u.id, timestamptz '2026-01-01' + u.id * interval '1 minute'
       from unnest($2::int[]) as u(id)`,
    [w.user.id, ids],
  );
  await w.get("/api/recommend");
  const prompt = w.ai.requests[0].body.messages[1].content as string;
  const listed = prompt.split("Not interested")[1].split("\n").filter((l) => l.startsWith("- "));
  assert.equal(listed.length, 30);
  assert.equal(listed[0], "- Film 54 (2014)");
});

Deno.test("dismissals are per user: another user's list and set are untouched", async () => {
  await using w = await recommendWorld();
  const other = await createUser(w.t.deps);
  assert.equal((await send(w, "POST", { catalogId: 40 }, other.headers)).status, 200);
  assert.deepEqual(await dismissedOf(w), []);
  const mine = await (await w.get("/api/recommend")).json();
  assert.ok(mine.recommendations.includes(15));
  assert.equal((await send(w, "POST", { catalogId: 15 })).status, 200);
  const theirs = await w.t.request("/api/recommend/dismissed", { headers: other.headers });
  assert.deepEqual(await theirs.json(), { catalogIds: [40] });
  // Row-level security: as the other user, my rows are invisible and cannot be deleted.
  const visible = await w.t.store.asUser(
    other.id,
    (tx) => tx.query(`select catalog_id from public.user_dismissed_movies`),
  );
  assert.deepEqual(visible.map((r) => Number(r.catalog_id)), [40]);
  await w.t.store.asUser(
    other.id,
    (tx) => tx.query(`delete from public.user_dismissed_movies where catalog_id = 15`),
  );
  assert.deepEqual(await dismissedOf(w), [15]);
});

Deno.test("at most 5,000 dismissed per user: the 5,000th is taken, the 5,001st is 400 too_many_dismissed", async () => {
  await using w = await recommendWorld();
  await w.t.store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id)
     select $1, g from generate_series(100001, 104999) as g`,
    [w.user.id],
  );
  assert.equal((await send(w, "POST", { catalogId: 30 })).status, 200);
  const over = await send(w, "POST", { catalogId: 31 });
  assert.equal(over.status, 400);
  assert.equal((await over.json()).code, "too_many_dismissed");
  // A repeat at the limit is still fine, and undoing one makes room again.
  assert.equal((await send(w, "POST", { catalogId: 30 })).status, 200);
  assert.equal((await send(w, "DELETE", { catalogId: 30 })).status, 200);
  assert.equal((await send(w, "POST", { catalogId: 31 })).status, 200);
  const [{ count }] = await w.t.store.query<{ count: number }>(
    `select count(*)::int as count from public.user_dismissed_movies where user_id = $1`,
    [w.user.id],
  );
  assert.equal(Number(count), 5000);
  // Another user is not affected by this user's count.
  const other = await createUser(w.t.deps);
  assert.equal((await send(w, "POST", { catalogId: 31 }, other.headers)).status, 200);
});
