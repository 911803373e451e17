/**
 * 👍/👎 on picks (docs/recommend.md, "Local picks"): POST and DELETE /api/recommend/feedback on
 * both stores. A 👎 dismisses and is never shown; undoing it removes the dismissal; a 👍 never
 * hides a film and pulls the picks towards it.
 */
import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { F, rate, seedFeatureMovies, worldMovies, worldStore } from "./helpers/local_world.ts";

async function world(engine: (typeof ENGINES)[number]) {
  const store = await worldStore(engine);
  const app = await testApp({ engine, store });
  await seedFeatureMovies(app.store, worldMovies());
  const user = await createUser(app.deps);
  await rate(app.store, user.id, [[F.heat, 9]]);
  const closeApp = app[Symbol.asyncDispose].bind(app);
  const t = Object.assign(app, {
    async [Symbol.asyncDispose]() {
      await closeApp();
      await store[Symbol.asyncDispose]();
    },
  });
  return { t, user };
}

type App = Awaited<ReturnType<typeof world>>["t"];

function send(t: App, user: TestUser | null, method: string, body: unknown) {
  return t.request("/api/recommend/feedback", {
    method,
    headers: { ...(user?.headers ?? {}), "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function pickIds(t: App, user: TestUser): Promise<number[]> {
  const res = await t.request("/api/recommend/local?limit=50", { headers: user.headers });
  return (await res.json()).recommendations.map((p: { catalogId: number }) => p.catalogId);
}

async function dismissed(t: App, user: TestUser): Promise<number[]> {
  const res = await t.request("/api/recommend/dismissed", { headers: user.headers });
  return (await res.json()).catalogIds;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/recommend/feedback -1 dismisses the film and it is never shown; DELETE undoes both`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    assert.ok((await pickIds(t, user)).includes(F.thief));
    const res = await send(t, user, "POST", { catalogId: F.thief, value: -1 });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { success: true });
    assert.deepEqual(await dismissed(t, user), [F.thief]);
    assert.ok(!(await pickIds(t, user)).includes(F.thief));
    // Undoing the dismissal alone still leaves the 👎: never shown.
    await t.request("/api/recommend/dismissed", {
      method: "DELETE",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: F.thief }),
    });
    assert.ok(!(await pickIds(t, user)).includes(F.thief));
    await send(t, user, "POST", { catalogId: F.thief, value: -1 });
    const undo = await send(t, user, "DELETE", { catalogId: F.thief });
    assert.equal(undo.status, 200);
    assert.deepEqual(await undo.json(), { success: true });
    assert.deepEqual(await dismissed(t, user), []);
    assert.ok((await pickIds(t, user)).includes(F.thief));
    // Undoing what was never given is not an error.
    assert.equal((await send(t, user, "DELETE", { catalogId: 4242 })).status, 200);
  });

  Deno.test(`[${engine}] a 👍 never hides a film and pulls its like up; turning a 👎 into a 👍 lifts the dismissal`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    const before = await pickIds(t, user);
    assert.ok(before.indexOf(F.oceans12) > 2);
    await send(t, user, "POST", { catalogId: F.oceans11, value: 1 });
    const after = await pickIds(t, user);
    assert.ok(after.includes(F.oceans11));
    assert.ok(after.indexOf(F.oceans12) < before.indexOf(F.oceans12));
    await send(t, user, "POST", { catalogId: F.oceans13, value: -1 });
    assert.deepEqual(await dismissed(t, user), [F.oceans13]);
    await send(t, user, "POST", { catalogId: F.oceans13, value: 1 });
    assert.deepEqual(await dismissed(t, user), []);
    assert.ok((await pickIds(t, user)).includes(F.oceans13));
    // Undoing a 👍 removes no dismissal made by "Not interested".
    await t.request("/api/recommend/dismissed", {
      method: "POST",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: F.oceans11 }),
    });
    await send(t, user, "DELETE", { catalogId: F.oceans11 });
    assert.deepEqual(await dismissed(t, user), [F.oceans11]);
  });

  Deno.test(`[${engine}] /api/recommend/feedback refuses bad bodies with 400, no token with 401, and writes nothing`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    const bad: [unknown, string][] = [
      [{ catalogId: F.thief, value: 0 }, "invalid_body"],
      [{ catalogId: F.thief, value: 2 }, "invalid_body"],
      [{ catalogId: F.thief, value: "1" }, "invalid_body"],
      [{ catalogId: F.thief }, "invalid_body"],
      [{ catalogId: 0, value: 1 }, "invalid_catalog_id"],
      [{ catalogId: 2147483648, value: 1 }, "invalid_catalog_id"],
      [{ value: 1 }, "invalid_body"],
      ["not json", "invalid_body"],
      [[1], "invalid_body"],
    ];
    for (const [body, code] of bad) {
      const res = await send(t, user, "POST", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal((await res.json()).code, code, JSON.stringify(body));
    }
    const badDelete = await send(t, user, "DELETE", { catalogId: "x" });
    assert.equal(badDelete.status, 400);
    assert.equal((await send(t, null, "POST", { catalogId: F.thief, value: -1 })).status, 401);
    assert.equal((await send(t, null, "DELETE", { catalogId: F.thief })).status, 401);
    const [row] = await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.recommend_feedback`,
    );
    assert.equal(row.n, 0);
    assert.deepEqual(await dismissed(t, user), []);
  });
}
