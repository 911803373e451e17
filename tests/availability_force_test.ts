/**
 * The operator's "run now" (docs/availability.md, "The availability job"): a run skips movies whose
 * providers were fetched in the last 20 hours, so right after setting things up it refreshes
 * nothing; `{"force":true}` refreshes them regardless, and a new offer then alerts.
 */
import assert from "node:assert/strict";
import type { TestApp } from "./helpers/app.ts";
import { ADMIN, choose, notes, save, serve, world } from "./helpers/availability_job_world.ts";
import { NETFLIX, P, PRIME, regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

const admin = { "x-admin-token": ADMIN, "content-type": "application/json" };

// POST /api/admin/availability-runs with `body`, then the run as GET lists it once it ended.
async function runNow(t: TestApp, body?: string) {
  const res = await t.request("/api/admin/availability-runs", {
    method: "POST",
    headers: admin,
    body,
  });
  assert.equal(res.status, 202);
  const { runId } = await res.json();
  for (let i = 0; i < 250; i++) {
    const { runs } = await (await t.request("/api/admin/availability-runs", { headers: admin }))
      .json();
    const run = runs.find((r: { id: string }) => r.id === runId);
    if (run && run.status !== "running") return run;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail("the run never finished");
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/admin/availability-runs with {"force":true} refreshes movies fetched in the last 20 hours`, async () => {
    await using w = await world(engine);
    const { t, fake, clock } = w;
    const user = await createUser(t.deps);
    await choose(t, user, { region: "US", providers: [P(8)] });
    await save(t, user, [301]);
    // Fetched an hour ago (the movie page, say), on Prime only; Netflix has it now.
    await seedMovie(t.store, {
      id: 301,
      providers: { US: regionOffers({ flatrate: [PRIME] }) },
      at: clock.now() - 3_600_000,
    });
    serve(fake, 301, { US: regionOffers({ flatrate: [PRIME, NETFLIX] }) });

    for (const body of [undefined, "{}", JSON.stringify({ force: false })]) {
      const plain = await runNow(t, body);
      assert.equal(plain.status, "succeeded");
      assert.equal(plain.moviesPlanned, 0, String(body));
    }
    assert.equal((await notes(t, user)).unread, 0);

    const forced = await runNow(t, JSON.stringify({ force: true }));
    assert.equal(forced.status, "succeeded");
    assert.equal(forced.moviesPlanned, 1);
    assert.equal(forced.moviesRefreshed, 1);
    assert.equal(forced.notifications, 1);
    const listed = await notes(t, user);
    assert.deepEqual(
      listed.notifications.map((n: { catalogId: number; provider: { id: number } }) => [
        n.catalogId,
        n.provider.id,
      ]),
      [[301, P(8)]],
    );
  });

  Deno.test(`[${engine}] POST /api/admin/availability-runs refuses a body other than empty, {} or {"force": boolean}`, async () => {
    await using w = await world(engine);
    const { t } = w;
    for (const body of ['{"force":"yes"}', '{"force":1}', '{"budget":5}', "[]", "true", "{"]) {
      const res = await t.request("/api/admin/availability-runs", {
        method: "POST",
        headers: admin,
        body,
      });
      assert.equal(res.status, 400, body);
      assert.equal((await res.json()).code, "invalid_body", body);
    }
    const { runs } = await (await t.request("/api/admin/availability-runs", { headers: admin }))
      .json();
    assert.deepEqual(runs, []);
  });
}
