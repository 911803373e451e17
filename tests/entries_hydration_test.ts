import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] list reads hydrate six-field cards, fallback cards, one query for 1 or 500`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, poster_path, genres, runtime)
       values (603, 'The Matrix', 1999, '/m.jpg', '{Action}', 136),
              (604, 'Light Row', 2003, '', '{}', null)
       on conflict (catalog_id) do nothing`,
    );
    const svc = t.deps.store;
    await svc.asUser(u.id, (tx) => tx.query("select public.append_my_list(603)"));
    await svc.asUser(u.id, (tx) => tx.query("select public.append_my_list(604)"));
    await svc.asUser(u.id, (tx) => tx.query("select public.append_my_list(2000001)"));
    const res = await t.request("/api/mylist", { headers: u.headers });
    assert.deepEqual((await res.json()).movies, [
      {
        catalogId: 603,
        title: "The Matrix",
        year: 1999,
        posterPath: "/m.jpg",
        genres: ["Action"],
        runtime: 136,
      },
      { catalogId: 604, title: "Light Row", year: 2003, posterPath: "", genres: [], runtime: 0 },
      { catalogId: 2000001, title: "", year: 0, posterPath: "", genres: [], runtime: 0 },
    ]);

    // An empty answer cannot show the token's session live, so it costs the check's own query.
    let before = t.store.stats.queries;
    await (await t.request("/api/watched", { headers: u.headers })).body?.cancel();
    assert.equal(t.store.stats.queries - before, 2);
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id) values ($1, 1)`,
      [u.id],
    );
    before = t.store.stats.queries;
    await (await t.request("/api/watched", { headers: u.headers })).body?.cancel();
    const perOne = t.store.stats.queries - before;
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id)
       select $1, g from generate_series(2, 500) g`,
      [u.id],
    );
    const start = t.store.stats.queries;
    const big = await t.request("/api/watched", { headers: u.headers });
    const perBig = t.store.stats.queries - start;
    assert.equal((await big.json()).movies.length, 500);
    assert.deepEqual([perOne, perBig], [1, 1]);
  });

  Deno.test(`[${engine}] user A never sees or changes user B's lists`, async () => {
    await using t = await testApp({ engine });
    const a = await createUser(t.deps);
    const b = await createUser(t.deps);
    const h = (u: typeof a) => ({ ...u.headers, "content-type": "application/json" });
    await (await t.request("/api/mylist", {
      method: "POST",
      headers: h(b),
      body: '{"catalogId":9}',
    })).body?.cancel();
    await (await t.request("/api/watched", {
      method: "POST",
      headers: h(b),
      body: '{"catalogId":8}',
    })).body?.cancel();
    const crafted = JSON.stringify({ catalogId: 9, userId: b.id, user_id: b.id });
    await (await t.request("/api/mylist", { method: "DELETE", headers: h(a), body: crafted })).body
      ?.cancel();
    await (await t.request("/api/watched", {
      method: "DELETE",
      headers: h(a),
      body: '{"catalogId":8}',
    })).body?.cancel();
    assert.deepEqual(
      (await (await t.request("/api/mylist", { headers: a.headers })).json()).movies,
      [],
    );
    assert.deepEqual(
      (await (await t.request("/api/watched", { headers: a.headers })).json()).movies,
      [],
    );
    const mine = await (await t.request("/api/mylist", { headers: b.headers })).json();
    assert.deepEqual(mine.movies.map((m: { catalogId: number }) => m.catalogId), [9]);
    const seen = await (await t.request("/api/watched", { headers: b.headers })).json();
    assert.deepEqual(seen.movies.map((m: { catalogId: number }) => m.catalogId), [8]);
  });

  Deno.test(`[${engine}] parallel adds keep 50 distinct ids, one copy of one id, one watched row`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const post = (path: string, id: number) =>
      t.request(path, {
        method: "POST",
        headers: { ...u.headers, "content-type": "application/json" },
        body: JSON.stringify({ catalogId: id }),
      }).then((r) => r.body?.cancel().then(() => r.status) ?? r.status);
    const ids = Array.from({ length: 50 }, (_, i) => 100 + i);
    assert.ok(
      (await Promise.all(ids.map((id) => post("/api/mylist", id)))).every((s) => s === 200),
    );
    const list = await (await t.request("/api/mylist", { headers: u.headers })).json();
    assert.deepEqual(list.movies.map((m: { catalogId: number }) => m.catalogId).sort(), ids);
    await Promise.all(Array.from({ length: 50 }, () => post("/api/mylist", 7)));
    await Promise.all(Array.from({ length: 20 }, () => post("/api/watched", 8)));
    const [row] = await t.store.query<{ ids: number[] }>(
      "select catalog_ids as ids from public.user_my_list where user_id = $1",
      [u.id],
    );
    assert.equal(row.ids.filter((id) => id === 7).length, 1);
    const [w] = await t.store.query<{ n: number }>(
      "select count(*)::int as n from public.user_watched_movies where user_id = $1 and catalog_id = 8",
      [u.id],
    );
    assert.equal(w.n, 1);
  });
}
