import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { addAll, json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/export carries the lists with items in position order, and one list as CSV in Letterboxd's list layout`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.movies (catalog_id, title, year) values (603, 'The Matrix, Reloaded?', 2003)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year`,
    );
    const id = await makeList(t, u, { name: "Top", description: "Two", ranked: true });
    await addAll(t, u, id, [777, 603]);
    await t.request(`/api/lists/${id}/items/603`, json(u, "PATCH", { position: 1, note: "Yes" }));
    const body = await (await t.request("/api/export", { headers: u.headers })).json();
    assert.deepEqual(body.lists, [{
      name: "Top",
      description: "Two",
      visibility: "private",
      ranked: true,
      items: [
        { catalogId: 603, title: "The Matrix, Reloaded?", year: 2003, position: 1, note: "Yes" },
        { catalogId: 777, title: "", year: 0, position: 2, note: null },
      ],
    }]);
    const res = await t.request(`/api/export?format=csv&list=list&id=${id}`, {
      headers: u.headers,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
    // Letterboxd's list layout (the import reads it back): the list's block, a blank line, the items.
    const created = new Date(t.deps.clock.now()).toISOString().slice(0, 10);
    assert.equal(
      await res.text(),
      "Letterboxd list export v7\r\nDate,Name,Tags,URL,Description\r\n" +
        `${created},Top,,,Two\r\n\r\n` +
        'Position,tmdbID,Title,Year,Description\r\n1,603,"The Matrix, Reloaded?",2003,Yes\r\n' +
        "2,777,,,\r\n",
    );
    const other = await createUser(t.deps);
    const denied = await t.request(`/api/export?format=csv&list=list&id=${id}`, {
      headers: other.headers,
    });
    assert.equal(denied.status, 404);
    assert.equal((await denied.json()).code, "list_not_found");
    const bad = await t.request("/api/export?format=csv&list=list", { headers: u.headers });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "invalid_query");
  });
}
