/**
 * A night's events across instances (docs/nights.md, "Events"): with COORDINATION=postgres two
 * app instances with their own pools and nothing else in common but the database pass every
 * event through LISTEN/NOTIFY, so a phone following the night on one instance hears the votes,
 * members and the match made on the other. Needs TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { TEST_DATABASE_URL, testDatabaseUrl } from "./helpers/store.ts";
import { eventReader, nightOf, seedWorld, send } from "./helpers/nights.ts";

Deno.test({
  name:
    "with COORDINATION=postgres a member following the night on one instance hears the member, vote and match events of another",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const env = { COORDINATION: "postgres", DATABASE_URL: await testDatabaseUrl() };
    await using a = await testApp({ env, engine: "postgres" });
    await using b = await testApp({ env, engine: "postgres" });
    assert.notEqual(a.store, b.store, "each instance has its own pool");
    await seedWorld(a.store);
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => createUser(a.deps)));
    // Alice makes the night on A; Bob follows it on B.
    const { id, token } = await nightOf(a, alice, [bob]);
    const res = await b.request(`/api/nights/${id}/events`, { headers: bob.headers });
    assert.equal(res.status, 200);
    const events = eventReader(res.body!);
    await events.next((e) => e.data.text === "connected");

    assert.equal((await send(a, carol, `/api/nights/${id}/join`, { body: { token } })).status, 200);
    const joined = await events.next((e) => e.event === "member");
    assert.equal(joined.data.displayName, carol.email.split("@")[0]);

    const started = await send(a, alice, `/api/nights/${id}/start`);
    const film = (started.body.shortlist as { catalogId: number; title: string }[])[4];
    await events.next((e) => e.event === "start");
    for (const [t, u] of [[a, alice], [b, bob], [a, carol]] as const) {
      const r = await send(t, u, `/api/nights/${id}/votes`, {
        body: { catalogId: film.catalogId, vote: "yes" },
      });
      assert.equal(r.status, 200);
      const v = await events.next((e) => e.event === "vote");
      assert.equal(v.data.catalogId, film.catalogId);
    }
    const match = await events.next((e) => e.event === "match");
    assert.deepEqual(match.data, { catalogId: film.catalogId, title: film.title });
    await events.cancel();
  },
});
