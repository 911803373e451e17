import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { addAll, json, makeList, order } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";

const FALLBACK = { title: "", year: 0, posterPath: "", genres: [], runtime: 0 };

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/lists creates a private unranked list that GET /api/lists shows`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    let res = await t.request("/api/lists", json(u, "POST", { name: "  Best of 2024 " }));
    assert.equal(res.status, 201);
    const { list } = await res.json();
    assert.deepEqual({ ...list, id: "", updatedAt: "" }, {
      id: "",
      name: "Best of 2024",
      description: "",
      visibility: "private",
      ranked: false,
      count: 0,
      updatedAt: "",
      shareUrl: null,
    });
    res = await t.request("/api/lists", { headers: u.headers });
    assert.deepEqual((await res.json()).lists, [list]);
  });

  Deno.test(`[${engine}] GET /api/lists/:id answers cards in position order, fallback cards included`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, poster_path, genres, runtime)
       values (603, 'The Matrix', 1999, '/m.jpg', '{Action}', 136)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
         poster_path = excluded.poster_path, genres = excluded.genres, runtime = excluded.runtime`,
    );
    const id = await makeList(t, u, { name: "Top", ranked: true });
    await addAll(t, u, id, [603, 777]);
    const res = await t.request(`/api/lists/${id}`, { headers: u.headers });
    const body = await res.json();
    assert.equal(body.list.count, 2);
    assert.equal(body.list.ranked, true);
    assert.deepEqual(body.movies, [
      {
        catalogId: 603,
        title: "The Matrix",
        year: 1999,
        posterPath: "/m.jpg",
        genres: ["Action"],
        runtime: 136,
        position: 1,
        note: null,
      },
      { catalogId: 777, ...FALLBACK, position: 2, note: null },
    ]);
    assert.equal(body.nextCursor, null);
  });

  Deno.test(`[${engine}] positions stay 1..n through inserts, moves and deletes`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    await addAll(t, u, id, [1, 2, 3, 4, 5]);
    const item = (c: number) => `/api/lists/${id}/items/${c}`;
    let res = await t.request(item(5), json(u, "PATCH", { position: 1 }));
    assert.equal((await res.json()).movie.position, 1);
    assert.deepEqual(await order(t, u, id), [5, 1, 2, 3, 4]);
    (await t.request(item(1), json(u, "PATCH", { position: 4 }))).body?.cancel();
    assert.deepEqual(await order(t, u, id), [5, 2, 3, 1, 4]);
    res = await t.request(item(2), json(u, "PATCH", { position: 99 }));
    assert.equal((await res.json()).movie.position, 5);
    assert.deepEqual(await order(t, u, id), [5, 3, 1, 4, 2]);
    assert.equal((await t.request(item(3), json(u, "DELETE"))).status, 204);
    assert.deepEqual(await order(t, u, id), [5, 1, 4, 2]);
    res = await t.request(`/api/lists/${id}/items`, json(u, "POST", { catalogId: 9, position: 2 }));
    assert.equal((await res.json()).movie.position, 2);
    assert.deepEqual(await order(t, u, id), [5, 9, 1, 4, 2]);
    assert.equal((await t.request(item(5), json(u, "DELETE"))).status, 204);
    assert.equal((await t.request(item(2), json(u, "DELETE"))).status, 204);
    assert.deepEqual(await order(t, u, id), [9, 1, 4]);
    res = await t.request(item(4), json(u, "PATCH", { note: "  watch with Sam " }));
    assert.equal((await res.json()).movie.note, "watch with Sam");
    res = await t.request(item(4), json(u, "PATCH", { note: null }));
    assert.equal((await res.json()).movie.note, null);
    res = await t.request(item(42), json(u, "PATCH", { position: 1 }));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "not_in_list");
  });

  Deno.test(`[${engine}] concurrent appends to one list get distinct positions 1..n`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    const ids = Array.from({ length: 24 }, (_, i) => 100 + i);
    const answers = await Promise.all(
      ids.map((catalogId) =>
        t.request(`/api/lists/${id}/items`, json(u, "POST", { catalogId }))
          .then(async (r) => ({ status: r.status, body: await r.json() }))
      ),
    );
    assert.deepEqual(answers.map((a) => a.status), ids.map(() => 201));
    const listed = await order(t, u, id);
    assert.deepEqual([...listed].sort(), [...ids].sort());
    // Each append's answer says where it went, and the list agrees.
    for (const a of answers) {
      assert.equal(listed[a.body.movie.position - 1], a.body.movie.catalogId);
    }
  });

  Deno.test(`[${engine}] POST /api/lists/:id/items of a movie already there answers 409 already_in_list`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    await addAll(t, u, id, [7]);
    const res = await t.request(`/api/lists/${id}/items`, json(u, "POST", { catalogId: 7 }));
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, "already_in_list");
    assert.deepEqual(await order(t, u, id), [7]);
  });

  Deno.test(`[${engine}] another user gets 404 on every list route and changes nothing`, async () => {
    await using t = await testApp({ engine });
    const owner = await createUser(t.deps);
    const other = await createUser(t.deps);
    const id = await makeList(t, owner);
    await addAll(t, owner, id, [1, 2]);
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/lists/${id}`],
      ["PATCH", `/api/lists/${id}`, { name: "Mine now" }],
      ["DELETE", `/api/lists/${id}`],
      ["POST", `/api/lists/${id}/items`, { catalogId: 3 }],
      ["PATCH", `/api/lists/${id}/items/1`, { position: 2 }],
      ["DELETE", `/api/lists/${id}/items/1`],
      ["POST", `/api/lists/${id}/share`],
      ["DELETE", `/api/lists/${id}/share`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(path, json(other, method, body));
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).code, "list_not_found");
    }
    assert.deepEqual(await (await t.request("/api/lists", { headers: other.headers })).json(), {
      lists: [],
    });
    assert.deepEqual(await order(t, owner, id), [1, 2]);
    const res = await t.request(`/api/lists/${id}`, { headers: owner.headers });
    const body = await res.json();
    assert.equal(body.list.name, "Rainy Sunday");
    assert.equal(body.list.shareUrl, null);
  });

  Deno.test(`[${engine}] PATCH and DELETE /api/lists/:id change and remove the list with its items`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    await addAll(t, u, id, [1]);
    let res = await t.request(
      `/api/lists/${id}`,
      json(u, "PATCH", { description: "For Sundays", ranked: true }),
    );
    const { list } = await res.json();
    assert.equal(list.description, "For Sundays");
    assert.equal(list.ranked, true);
    assert.equal(list.name, "Rainy Sunday");
    res = await t.request(`/api/lists/${id}`, json(u, "DELETE"));
    assert.equal(res.status, 204);
    res = await t.request(`/api/lists/${id}`, { headers: u.headers });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const [left] = await t.store.query(
      `select count(*)::int as n from public.user_list_items where list_id = $1`,
      [id],
    );
    assert.equal(left.n, 0);
  });
}
