import assert from "node:assert/strict";
import { createEntriesService } from "../lib/library/entries/mod.ts";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] lists status says where one movie stands, for that user only, with the watched entry`, async () => {
    await using t = await testApp({ engine });
    const lists = createEntriesService(t.deps);
    const [a, b] = [await createUser(t.deps), await createUser(t.deps)];
    await lists.addWatched(a.id, 11, { fields: { rating: 7, note: "Twice" } });
    await lists.addMyList(a.id, 12);
    const entry = await lists.entry(a.id, 11);
    assert.deepEqual(await lists.status(a.id, 11), { watched: true, inMyList: false, entry });
    assert.equal(entry.rating, 7);
    assert.equal(entry.note, "Twice");
    assert.deepEqual(await lists.status(a.id, 12), { watched: false, inMyList: true });
    assert.deepEqual(await lists.status(a.id, 13), { watched: false, inMyList: false });
    assert.deepEqual(await lists.status(b.id, 11), { watched: false, inMyList: false });
    const before = t.store.stats.queries;
    await lists.status(a.id, 11);
    assert.equal(t.store.stats.queries - before, 1);
  });
}
