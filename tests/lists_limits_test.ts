import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { addAll, json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the 200th list is created and the 201st answers 400 too_many_lists`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.user_lists (user_id, name)
       select $1::uuid, 'List ' || n from generate_series(1, 199) n`,
      [u.id],
    );
    await makeList(t, u, { name: "The 200th" });
    const res = await t.request("/api/lists", json(u, "POST", { name: "One more" }));
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, "too_many_lists");
    const [row] = await t.store.query(
      `select count(*)::int as n from public.user_lists where user_id = $1`,
      [u.id],
    );
    assert.equal(row.n, 200);
  });

  Deno.test(`[${engine}] the 5,000th item is added and the 5,001st answers 400 list_full`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    await t.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position)
       select $1::uuid, n, n from generate_series(1, 4999) n`,
      [id],
    );
    await addAll(t, u, id, [10_000]);
    const res = await t.request(`/api/lists/${id}/items`, json(u, "POST", { catalogId: 10_001 }));
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, "list_full");
    const page = await (await t.request(`/api/lists/${id}?limit=1`, { headers: u.headers })).json();
    assert.equal(page.list.count, 5000);
  });

  Deno.test(`[${engine}] GET /api/lists/:id pages with limit and nextCursor to the end`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u);
    await addAll(t, u, id, [11, 12, 13, 14, 15]);
    const seen: number[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const q: string = cursor ? `&cursor=${cursor}` : "";
      const res = await t.request(`/api/lists/${id}?limit=2${q}`, { headers: u.headers });
      assert.equal(res.status, 200);
      const body = await res.json();
      seen.push(...body.movies.map((m: { catalogId: number }) => m.catalogId));
      cursor = body.nextCursor;
      pages++;
    }
    assert.deepEqual(seen, [11, 12, 13, 14, 15]);
    assert.equal(pages, 3);
    for (const bad of ["limit=0", "limit=501", "limit=x", "cursor=zz", "limit=1&limit=2"]) {
      const res = await t.request(`/api/lists/${id}?${bad}`, { headers: u.headers });
      assert.equal(res.status, 400, bad);
      assert.equal((await res.json()).code, "invalid_query");
    }
  });

  Deno.test(`[${engine}] bad list and item bodies answer 400 and store nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const bad: [unknown, string][] = [
      [{}, "invalid_body"],
      [{ name: "   " }, "invalid_body"],
      [{ name: "x".repeat(101) }, "invalid_body"],
      [{ name: "ok", description: "d".repeat(2001) }, "invalid_body"],
      [{ name: "ok", visibility: "friends" }, "invalid_body"],
      [{ name: "ok", ranked: "yes" }, "invalid_body"],
      [{ name: "ok", owner: "me" }, "invalid_body"],
    ];
    for (const [body, code] of bad) {
      const res = await t.request("/api/lists", json(u, "POST", body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).code, code);
    }
    await makeList(t, u, { name: "x".repeat(100), description: "d".repeat(2000) });
    const id = await makeList(t, u);
    const items: [unknown, string][] = [
      [{}, "invalid_body"],
      [{ catalogId: "12" }, "invalid_catalog_id"],
      [{ catalogId: 0 }, "invalid_catalog_id"],
      [{ catalogId: 12, note: "n".repeat(501) }, "invalid_body"],
      [{ catalogId: 12, position: 0 }, "invalid_body"],
    ];
    for (const [body, code] of items) {
      const res = await t.request(`/api/lists/${id}/items`, json(u, "POST", body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).code, code);
    }
    let res = await t.request(`/api/lists/${id}`, json(u, "PATCH", {}));
    assert.equal((await res.json()).code, "invalid_body");
    res = await t.request(`/api/lists/not-a-list`, { headers: u.headers });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "list_not_found");
    res = await t.request(`/api/lists/${id}/items/abc`, json(u, "DELETE"));
    assert.equal((await res.json()).code, "invalid_catalog_id");
    res = await t.request("/api/lists", { method: "POST", body: "{}" });
    assert.equal(res.status, 401);
    await res.body?.cancel();
    const page = await (await t.request(`/api/lists/${id}`, { headers: u.headers })).json();
    assert.equal(page.list.count, 0);
  });
}
