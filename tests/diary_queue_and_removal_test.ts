import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { send } from "./helpers/watched_entries.ts";

// Ids no other test gives a movie row, since the PostgreSQL store is shared by the run.
const Q = 1_900_001_000;

type T = Awaited<ReturnType<typeof testApp>>;

async function log(t: T, u: TestUser, body: Record<string, unknown>) {
  const res = await t.request("/api/diary", send(u, "POST", body));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).entry;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/diary/unrated is the latest watched movies without a rating, newest watch first`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-22T12:00:00Z");
    const u = await createUser(t.deps);
    await (await t.request(
      "/api/watched",
      send(u, "POST", { catalogId: Q + 1, watchedOn: "2026-01-01" }),
    )).body?.cancel();
    const v = await log(t, u, { catalogId: Q + 2, watchedOn: "2026-02-01" });
    await log(t, u, { catalogId: Q + 3, watchedOn: "2026-03-01", rating: 7 });
    await (await t.request("/api/watched", send(u, "POST", { catalogId: Q + 4, watchedOn: null })))
      .body
      ?.cancel();
    let res = await t.request("/api/diary/unrated", { headers: u.headers });
    assert.equal(res.status, 200);
    const { movies } = await res.json();
    assert.deepEqual(
      movies.map((m: { catalogId: number }) => m.catalogId),
      [2, 1, 4].map((n) => Q + n),
    );
    assert.deepEqual(movies[0], {
      catalogId: Q + 2,
      title: "",
      year: 0,
      posterPath: "",
      watchedOn: "2026-02-01",
      viewingId: v.id,
    });
    assert.equal(movies[1].viewingId, null);
    res = await t.request("/api/diary/unrated?limit=1", { headers: u.headers });
    assert.equal((await res.json()).movies.length, 1);
    // Rating the latest viewing takes the movie off the queue.
    await (await t.request(`/api/diary/${v.id}`, send(u, "PATCH", { rating: 6 }))).body?.cancel();
    res = await t.request("/api/diary/unrated", { headers: u.headers });
    assert.deepEqual((await res.json()).movies.map((m: { catalogId: number }) => m.catalogId), [
      Q + 1,
      Q + 4,
    ]);
    for (const q of ["limit=0", "limit=51", "x=1"]) {
      await problem(
        await t.request(`/api/diary/unrated?${q}`, { headers: u.headers }),
        400,
        "invalid_query",
      );
    }
    assert.equal(
      (await t.request("/api/diary/unrated?limit=50", { headers: u.headers })).status,
      200,
    );
  });
  Deno.test(`[${engine}] removing a movie from the watched list removes its viewings`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await log(t, u, { catalogId: 5, watchedOn: "2026-01-01" });
    await (await t.request("/api/watched", send(u, "DELETE", { catalogId: 5 }))).body?.cancel();
    const [row] = await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.user_viewings where user_id = $1`,
      [u.id],
    );
    assert.equal(row.n, 0);
  });

  Deno.test(`[${engine}] deleting the account removes its viewings, and leaves another user's`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const other = await createUser(t.deps);
    await log(t, u, { catalogId: 5, watchedOn: "2026-01-01" });
    await log(t, other, { catalogId: 5, watchedOn: "2026-01-01" });
    const res = await t.request("/api/account", {
      ...send(u, "DELETE", { confirm: "delete my account" }),
    });
    assert.equal(res.status, 204);
    const count = async (id: string) =>
      (await t.store.query<{ n: number }>(
        `select count(*)::int as n from public.user_viewings where user_id = $1`,
        [id],
      ))[0].n;
    assert.equal(await count(u.id), 0);
    assert.equal(await count(other.id), 1);
  });
}
