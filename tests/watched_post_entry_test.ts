import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { rows, send } from "./helpers/watched_entries.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/watched with history fields sets them in either form; a repeat without them changes nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const clock = t.clock;
    let res = await t.request(
      "/api/watched",
      send(u, "POST", { catalogId: 5, rating: 7, watchedOn: "2020-05-01", note: "cinema" }),
    );
    assert.deepEqual(await res.json(), { success: true, watchedCount: null });
    const first = await rows(t, u);
    assert.deepEqual(
      first.map((r) => [r.catalog_id, r.rating, r.watched_on, r.note]),
      [[5, 7, "2020-05-01", "cinema"]],
    );
    clock.advance(60_000);
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 5 }))).body?.cancel();
    await (await t.request("/api/watched", send(u, "POST", { movie: { catalogId: 5 } }))).body
      ?.cancel();
    assert.deepEqual(await rows(t, u), first);
    // With fields, the entry is updated (only those named); addedAt stays the first write's.
    res = await t.request("/api/watched", send(u, "POST", { movie: { catalogId: 5 }, rating: 10 }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    res = await t.request("/api/watched", send(u, "POST", { catalogId: 5, note: null }));
    await res.body?.cancel();
    assert.deepEqual(
      (await rows(t, u)).map((r) => [r.rating, r.watched_on, r.note, String(r.created_at)]),
      [[10, "2020-05-01", null, String(first[0].created_at)]],
    );
    // A new movie with watchedOn null has an unknown date.
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 6, watchedOn: null })))
      .body?.cancel();
    const entry = (await (await t.request("/api/watched/6", { headers: u.headers })).json()).entry;
    assert.equal(entry.watchedOn, null);
  });

  Deno.test(`[${engine}] POST /api/watched with a bad history field answers its code and stores nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const refused: [unknown, string][] = [
      [{ catalogId: 5, rating: 0 }, "invalid_rating"],
      [{ catalogId: 5, rating: 11 }, "invalid_rating"],
      [{ movie: { catalogId: 5 }, rating: 2.5 }, "invalid_rating"],
      [{ catalogId: 5, rating: "8" }, "invalid_rating"],
      [{ catalogId: 5, watchedOn: "2024-02-30" }, "invalid_date"],
      [{ catalogId: 5, watchedOn: "1800-01-01" }, "invalid_date"],
      [{ catalogId: 5, watchedOn: "2030-01-01" }, "invalid_date"],
      [{ catalogId: 5, note: "x".repeat(2001) }, "invalid_note"],
      [{ catalogId: 0, rating: 8 }, "invalid_catalog_id"],
      [{ rating: 8 }, "invalid_body"],
    ];
    for (const [body, code] of refused) {
      await problem(await t.request("/api/watched", send(u, "POST", body)), 400, code);
    }
    assert.deepEqual(await rows(t, u), []);
    // A refused write on a watched movie leaves it as it was.
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 5, rating: 4 }))).body
      ?.cancel();
    const before = await rows(t, u);
    for (const [body, code] of refused.slice(0, 8)) {
      await problem(await t.request("/api/watched", send(u, "POST", body)), 400, code);
    }
    assert.deepEqual(await rows(t, u), before);
  });
}
