/**
 * A night's event stream (docs/nights.md, "Events"): `member`, `vote` and `match` events reach a
 * second connection (the film named in the data, nobody's yes or no); a heartbeat comment; the
 * stream ends when the night does (expiry by the injected clock, or deletion); the per-night
 * cap answers 429. On both stores; across two instances on COORDINATION=postgres in
 * night_instances_test.ts.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";
import { eventReader, freshTokens, nightOf, seedWorld, send } from "./helpers/nights.ts";

type App = Awaited<ReturnType<typeof testApp>>;

async function stream(t: App, headers: Record<string, string>, id: string) {
  const res = await t.request(`/api/nights/${id}/events`, { headers });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  return eventReader(res.body!);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/nights/:id/events streams member, vote and match events naming the film to a second connection`, async () => {
    await using t = await testApp({ engine });
    await seedWorld(t.store);
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => createUser(t.deps)));
    const { id, token } = await nightOf(t, alice, [bob]);
    const events = await stream(t, bob.headers, id);
    assert.equal((await events.next()).event, "comment");
    assert.equal((await send(t, carol, `/api/nights/${id}/join`, { body: { token } })).status, 200);
    const joined = await events.next((e) => e.event === "member");
    assert.deepEqual(joined.data, {
      change: "joined",
      displayName: carol.email.split("@")[0],
      members: 3,
    });
    const started = await send(t, alice, `/api/nights/${id}/start`);
    const [first] = started.body.shortlist as { catalogId: number; title: string }[];
    assert.equal((await events.next((e) => e.event === "start")).data.films, 12);
    for (const u of [alice, bob, carol]) {
      await send(t, u, `/api/nights/${id}/votes`, {
        body: { catalogId: first.catalogId, vote: "yes" },
      });
      const v = await events.next((e) => e.event === "vote");
      assert.equal(v.data.catalogId, first.catalogId);
      assert.equal(v.data.title, first.title);
      assert.equal(v.data.displayName, u.email.split("@")[0]);
      assert.ok(!("vote" in v.data) && !("yes" in v.data), "nobody's yes or no is told");
    }
    const match = await events.next((e) => e.event === "match");
    assert.deepEqual(match.data, { catalogId: first.catalogId, title: first.title });
    // Leaving is a member event too.
    await send(t, carol, `/api/nights/${id}/members/me`, { method: "DELETE" });
    assert.equal((await events.next((e) => e.event === "member")).data.change, "left");
    await events.cancel();
  });

  Deno.test(`[${engine}] a night's stream sends a heartbeat comment and ends when the night expires or is deleted`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob]);
    const events = await stream(t, bob.headers, id);
    await events.next((e) => e.data.text === "connected");
    t.clock.advance(25_000);
    assert.equal((await events.next()).data.text, "ping");
    t.clock.advance(24 * 3600 * 1000);
    assert.deepEqual((await events.next((e) => e.event === "end")).data, { reason: "expired" });
    assert.ok(await events.ended());

    await freshTokens(t, [alice, bob]);
    const other = await nightOf(t, alice, [bob]);
    const second = await stream(t, bob.headers, other.id);
    assert.equal(
      (await send(t, alice, `/api/nights/${other.id}`, { method: "DELETE" })).status,
      204,
    );
    assert.deepEqual((await second.next((e) => e.event === "end")).data, { reason: "deleted" });
    assert.ok(await second.ended());
  });

  Deno.test(`[${engine}] a night takes 24 streams at once: the 25th answers 429 too_many_streams, and a closed one frees its place`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob]);
    const open = [];
    for (let i = 0; i < 24; i++) {
      open.push(await stream(t, i % 2 ? alice.headers : bob.headers, id));
    }
    const over = await t.request(`/api/nights/${id}/events`, { headers: bob.headers });
    assert.equal(over.status, 429);
    assert.equal((await over.json()).code, "too_many_streams");
    await open.pop()!.cancel();
    const again = await stream(t, bob.headers, id);
    for (const s of [...open, again]) await s.cancel();
  });
}
