import assert from "node:assert/strict";
import { createExternalWindow } from "../lib/catalog/external_window.ts";
import {
  AVAILABILITY_LOCK_KEY,
  failInterruptedAvailabilityRuns,
} from "../lib/catalog/availability/mod.ts";
import {
  ADMIN,
  choose,
  notes,
  runOnce,
  save,
  serve,
  world,
} from "./helpers/availability_job_world.ts";
import {
  APPLE,
  MUBI,
  NETFLIX,
  P,
  PRIME,
  regionOffers,
  seedMovie,
} from "./helpers/availability_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const summary = (
  body: { notifications: { catalogId: number; provider: { id: number }; region: string }[] },
) => body.notifications.map((n) => `${n.catalogId}:${n.provider.id}:${n.region}`);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a movie newly streaming on my service alerts the right users once, never for other regions or providers`, async () => {
    await using w = await world(engine);
    const { t, fake, clock } = w;
    const a = await createUser(t.deps); // US, Netflix: gets the alert
    const b = await createUser(t.deps); // US, Prime: Prime was there already
    const c = await createUser(t.deps); // GB, Netflix: only rent in GB
    const d = await createUser(t.deps); // US, Netflix, movie not on their list
    const e = await createUser(t.deps); // no services
    await choose(t, a, { region: "US", providers: [P(8)] });
    await choose(t, b, { region: "US", providers: [P(9)] });
    await choose(t, c, { region: "GB", providers: [P(8)] });
    await choose(t, d, { region: "US", providers: [P(8)] });
    for (const u of [a, b, c, e]) await save(t, u, [101]);
    await save(t, d, [102]);
    const before = clock.now() - 3 * 86_400_000;
    await seedMovie(t.store, {
      id: 101,
      providers: { US: regionOffers({ flatrate: [PRIME] }) },
      at: before,
    });
    await seedMovie(t.store, {
      id: 102,
      providers: { US: regionOffers({ flatrate: [NETFLIX] }) },
      at: before,
    });
    serve(fake, 101, {
      US: regionOffers({ flatrate: [PRIME, NETFLIX], rent: [APPLE] }),
      GB: regionOffers({ rent: [NETFLIX] }),
    });
    serve(fake, 102, { US: regionOffers({ flatrate: [NETFLIX] }) });

    const first = await runOnce(t);
    assert.equal(first.status, "succeeded");
    assert.equal(first.moviesRefreshed, 2);
    assert.equal(first.notifications, 1);
    const listed = await notes(t, a);
    assert.equal(listed.unread, 1);
    assert.deepEqual(summary(listed), [`101:${P(8)}:US`]);
    const [n] = listed.notifications;
    assert.equal(n.kind, "now_streaming");
    assert.equal(n.provider.name, "Netflix");
    assert.equal(n.provider.logo, "https://image.tmdb.org/t/p/w92/netflix.jpg");
    assert.equal(n.readAt, null);
    for (const u of [b, c, d, e]) {
      assert.deepEqual(await notes(t, u), { notifications: [], unread: 0 });
    }

    // Unchanged the next day: nothing new. Gone and back within 30 days: no repeat.
    clock.advance(86_400_000);
    assert.equal((await runOnce(t)).notifications, 0);
    serve(fake, 101, { US: regionOffers({ flatrate: [PRIME] }) });
    clock.advance(86_400_000);
    assert.equal((await runOnce(t)).notifications, 0);
    serve(fake, 101, { US: regionOffers({ ads: [NETFLIX] }) });
    clock.advance(86_400_000);
    assert.equal((await runOnce(t)).notifications, 0);
    assert.equal((await notes(t, a)).notifications.length, 1);
    // Gone again and back after 30 days: a new alert. A newly added free MUBI is not a's.
    serve(fake, 101, { US: regionOffers({}) });
    clock.advance(86_400_000);
    await runOnce(t);
    serve(fake, 101, { US: regionOffers({ free: [NETFLIX, MUBI] }) });
    clock.advance(30 * 86_400_000);
    assert.equal((await runOnce(t)).notifications, 1);
    assert.deepEqual(summary(await notes(t, a)), [`101:${P(8)}:US`, `101:${P(8)}:US`]);
    assert.equal((await notes(t, a)).unread, 2);
  });

  Deno.test(`[${engine}] a run keeps to its budget and a quarter of the window, refreshes each movie once, and the next run does the rest`, async () => {
    await using w = await world(engine, { AVAILABILITY_BUDGET: "25" });
    const { t, fake, clock, calls } = w;
    const users = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    const ids = Array.from({ length: 40 }, (_, i) => 1000 + i);
    for (const [i, u] of users.entries()) {
      await choose(t, u, { providers: [P(8)] });
      // Overlapping lists: 40 distinct movies in 90 entries.
      await save(t, u, ids.slice(i * 0, 30 + i * 5));
    }
    for (const id of ids) {
      await seedMovie(t.store, {
        id,
        providers: { US: regionOffers({}) },
        at: clock.now() - (id % 7 + 2) * 86_400_000,
      });
      serve(fake, id, { US: regionOffers({ flatrate: [NETFLIX] }) });
    }
    // Another caller keeps the shared window busy: the job still keeps to its own share.
    const shared = createExternalWindow(t.kv, { clock });
    for (let i = 0; i < 35; i++) await shared.acquire({ wait: false });

    const first = await runOnce(t);
    assert.equal(first.status, "succeeded");
    assert.equal(first.moviesPlanned, 25);
    assert.equal(first.calls, 25);
    assert.equal(calls.length, 25);
    const perWindow = new Map<number, number>();
    for (const at of calls) {
      perWindow.set(Math.floor(at / 1000), (perWindow.get(Math.floor(at / 1000)) ?? 0) + 1);
    }
    assert.ok(Math.max(...perWindow.values()) <= 10, JSON.stringify([...perWindow]));
    assert.ok(perWindow.size >= 3);
    const fetched = fake.requests.filter((r) => r.path.startsWith("/movie/")).map((r) => r.path);
    assert.equal(new Set(fetched).size, fetched.length, "each movie once");
    // Oldest first: the 25 refreshed are the oldest stored.
    const refreshed = new Set(fetched.map((p) => Number(p.slice(7))));
    const order = [...ids].sort((x, y) => (y % 7) - (x % 7) || x - y);
    assert.deepEqual([...refreshed].sort(), order.slice(0, 25).sort());

    clock.advance(3_600_000);
    const second = await runOnce(t);
    assert.equal(second.moviesPlanned, 15);
    assert.equal(second.calls, 15);
    assert.equal(calls.length, 40);
    const runs = await t.services.availability.runs();
    assert.deepEqual(runs.map((r) => [r.status, r.calls, r.budget]), [["succeeded", 15, 25], [
      "succeeded",
      25,
      25,
    ]]);
    // One alert per (user, movie): 30 + 35 + 40 entries, counted right with 4 movies in flight.
    assert.equal(first.notifications + second.notifications, 105);
    // Every user saved movies that newly stream on Netflix.
    assert.equal((await notes(t, users[0])).unread, 30);
  });

  Deno.test(`[${engine}] one run at a time; a run cut off by a restart is marked failed and the next picks up`, async () => {
    await using w = await world(engine);
    const { t, clock } = w;
    const u = await createUser(t.deps);
    await choose(t, u, { providers: [P(8)] });
    await save(t, u, [550]);
    const started = await t.services.availability.start();
    await assert.rejects(
      t.services.availability.start(),
      (e: { code?: string }) => e.code === "availability_running",
    );
    await started.done;
    clock.advance(1000);
    // A process that died mid-run: its row still says running, its lease ran out.
    await t.store.query(
      `insert into public.availability_runs (id, trigger, budget, started_at) values ($1, 'cron', 5, $2)`,
      [crypto.randomUUID(), new Date(clock.now()).toISOString()],
    );
    const lease = await t.kv.get(AVAILABILITY_LOCK_KEY);
    assert.equal(lease.value, null);
    clock.advance(1000);
    assert.equal((await failInterruptedAvailabilityRuns(t.deps)).length, 1);
    const runs = await t.services.availability.runs();
    assert.deepEqual(runs.map((r) => r.status), ["failed", "succeeded"]);
    assert.equal(runs[0].lastError, "interrupted by a restart");
  });

  Deno.test(`[${engine}] the notifications API: unread filter, mark read by id or all, others' ids ignored, account deletion removes them`, async () => {
    await using w = await world(engine);
    const { t, fake, clock } = w;
    const a = await createUser(t.deps);
    const b = await createUser(t.deps);
    for (const u of [a, b]) {
      await choose(t, u, { providers: [P(8), P(9)] });
      await save(t, u, [201, 202]);
    }
    for (const id of [201, 202]) {
      await seedMovie(t.store, {
        id,
        providers: { US: regionOffers({}) },
        at: clock.now() - 86_400_000 * 3,
      });
    }
    serve(fake, 201, { US: regionOffers({ flatrate: [NETFLIX] }) });
    serve(fake, 202, { US: regionOffers({ flatrate: [NETFLIX, PRIME] }) });
    assert.equal((await runOnce(t)).notifications, 6);
    const listed = await notes(t, a);
    assert.equal(listed.unread, 3);
    const post = (u: TestUser, body: unknown) =>
      t.request("/api/notifications/read", {
        method: "POST",
        headers: { ...u.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const mine = listed.notifications[0].id;
    // b cannot mark a's.
    assert.equal((await post(b, { ids: [mine] })).status, 200);
    assert.equal((await notes(t, a)).unread, 3);
    const res = await post(a, { ids: [mine] });
    assert.deepEqual(await res.json(), { success: true });
    assert.equal((await notes(t, a)).unread, 2);
    assert.equal((await notes(t, a, "?unread=true")).notifications.length, 2);
    assert.ok((await notes(t, a)).notifications.find((n: { id: string }) => n.id === mine).readAt);
    assert.equal((await post(a, { all: true })).status, 200);
    assert.deepEqual(await notes(t, a, "?unread=true"), { notifications: [], unread: 0 });
    assert.equal((await notes(t, b)).unread, 3);
    for (
      const bad of [{}, { ids: [] }, { ids: ["x"] }, { all: false }, { all: true, ids: [mine] }, [
        1,
      ]]
    ) {
      const r = await post(a, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal((await r.json()).code, "invalid_body");
    }
    const q = await t.request("/api/notifications?unread=yes", { headers: a.headers });
    assert.equal(q.status, 400);
    assert.equal((await t.request("/api/notifications")).status, 401);
    const del = await t.request("/api/account", {
      method: "DELETE",
      headers: { ...a.headers, "content-type": "application/json" },
      body: JSON.stringify({ confirm: "delete my account" }),
    });
    assert.equal(del.status, 204);
    const left = await t.store.query(`select 1 from public.user_notifications where user_id = $1`, [
      a.id,
    ]);
    assert.deepEqual(left, []);
  });

  Deno.test(`[${engine}] /api/admin/availability-runs wants the admin token, starts a run and lists it`, async () => {
    await using w = await world(engine);
    const { t } = w;
    const admin = { "x-admin-token": ADMIN };
    assert.equal((await t.request("/api/admin/availability-runs")).status, 401);
    assert.equal((await t.request("/api/admin/availability-runs", { method: "POST" })).status, 401);
    const bad = await t.request("/api/admin/availability-runs", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ budget: 5 }),
    });
    assert.equal(bad.status, 400);
    const res = await t.request("/api/admin/availability-runs", { method: "POST", headers: admin });
    assert.equal(res.status, 202);
    const body = await res.json();
    assert.equal(body.status, "running");
    // Finishes at once (nobody has services): then listed.
    for (let i = 0; i < 50; i++) {
      const runs =
        (await (await t.request("/api/admin/availability-runs", { headers: admin })).json()).runs;
      if (runs[0]?.status === "succeeded") {
        assert.equal(runs[0].id, body.runId);
        assert.equal(runs[0].trigger, "manual");
        assert.equal(runs[0].budget, 2000);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail("the run never finished");
  });
}
