/**
 * Release alerts from the availability job (docs/availability.md, "Release alerts"): in theaters,
 * on digital and on disc, for My List films of users with services, when the release of that
 * type in the user's own region is today or in the 3 days before (UTC), once per film, kind and
 * region, as the user's kind switches say; and the re-fetch of stale release data near a date.
 */
import assert from "node:assert/strict";
import { writeAlertKinds } from "@/lib/catalog/notifications/alert_kinds.ts";
import { choose, notes, runOnce, save, serve, world } from "./helpers/availability_job_world.ts";
import { NETFLIX, P, regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { dayFrom, seedReleases, serveReleases } from "./helpers/release_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import type { TestApp } from "./helpers/app.ts";

const DAY = 86_400_000;
const THEATRICAL = 3;
const LIMITED = 2;
const DIGITAL = 4;
const PHYSICAL = 5;

/** The user's alerts as "catalogId:kind:region:releaseDate", oldest first. */
async function alerts(t: TestApp, user: TestUser): Promise<string[]> {
  const body = await notes(t, user);
  return body.notifications.map((n: Record<string, unknown>) =>
    `${n.catalogId}:${n.kind}:${n.region}:${n.releaseDate ?? ""}`
  ).reverse();
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a film in theaters in my region today alerts me once, only in my region, only with services`, async () => {
    await using w = await world(engine);
    const { t, fake, clock } = w;
    const start = clock.now();
    const film = 460_001;
    // US: wide in two days. GB: out twelve days ago. Nothing in DE.
    serveReleases(fake, film, {
      US: [[THEATRICAL, dayFrom(start, 2)]],
      GB: [[THEATRICAL, dayFrom(start, -12)]],
      FR: [[THEATRICAL, dayFrom(start, 0)]],
    });
    const us = await createUser(t.deps);
    const gb = await createUser(t.deps);
    const de = await createUser(t.deps); // no DE date: another region's date never alerts
    const noProviders = await createUser(t.deps); // US, a row but no service chosen
    const noRow = await createUser(t.deps); // never chose services (so no region either)
    await choose(t, us, { region: "US", providers: [P(8)] });
    await choose(t, gb, { region: "GB", providers: [P(8)] });
    await choose(t, de, { region: "DE", providers: [P(8)] });
    await choose(t, noProviders, { region: "FR", emailAlerts: true });
    for (const u of [us, gb, de, noProviders, noRow]) await save(t, u, [film]);

    // Day 0: the run fetches the film (its first fetch); the US date is two days away.
    const first = await runOnce(t);
    assert.equal(first.status, "succeeded");
    assert.equal(first.moviesRefreshed, 1);
    assert.equal(first.notifications, 0);
    for (const u of [us, gb, de, noProviders, noRow]) assert.deepEqual(await alerts(t, u), []);

    // The day before the release, late: fetched again (more than 20 hours on), nothing due.
    clock.advance(DAY + 19 * 3_600_000);
    const dayBefore = await runOnce(t);
    assert.equal(dayBefore.moviesRefreshed, 1);
    assert.equal(dayBefore.notifications, 0);
    // The release day, two hours later: not fetched again, the stored dates still count.
    clock.advance(2 * 3_600_000);
    assert.equal(new Date(clock.now()).toISOString().slice(0, 10), dayFrom(start, 2));
    const onTheDay = await runOnce(t);
    assert.equal(onTheDay.moviesPlanned, 0, "refreshed less than 20 hours ago");
    assert.equal(onTheDay.calls, 0);
    assert.equal(onTheDay.notifications, 1);
    assert.deepEqual(await alerts(t, us), [`${film}:in_theaters:US:${dayFrom(start, 2)}`]);
    for (const u of [gb, de, noProviders, noRow]) assert.deepEqual(await alerts(t, u), []);

    // The days after: never again.
    for (let i = 0; i < 3; i++) {
      clock.advance(DAY);
      assert.equal((await runOnce(t)).notifications, 0);
    }
    assert.equal((await alerts(t, us)).length, 1);
  });

  Deno.test(`[${engine}] a release alerts on its day and the 3 days after, not on the 4th nor before it`, async () => {
    await using w = await world(engine);
    const { t, clock } = w;
    const now = clock.now();
    const u = await createUser(t.deps);
    await choose(t, u, { region: "US", providers: [P(8)] });
    const films = [460_011, 460_012, 460_013, 460_014, 460_015];
    await save(t, u, films);
    const on = (days: number): [number, string][] => [[DIGITAL, dayFrom(now, days)]];
    // Fetched an hour ago: the run fetches none of them, it reads what is stored.
    const fetchedAt = now - 3_600_000;
    await seedReleases(t.store, { id: 460_011, releases: { US: on(0) }, fetchedAt });
    await seedReleases(t.store, { id: 460_012, releases: { US: on(-3) }, fetchedAt });
    await seedReleases(t.store, { id: 460_013, releases: { US: on(-4) }, fetchedAt });
    await seedReleases(t.store, { id: 460_014, releases: { US: on(1) }, fetchedAt });
    // Its earliest digital date in the region counts (as the calendar shows it): long past.
    await seedReleases(t.store, {
      id: 460_015,
      releases: { US: [[DIGITAL, dayFrom(now, -40)], [DIGITAL, dayFrom(now, 0)]] },
      fetchedAt,
    });
    const outcome = await runOnce(t);
    assert.equal(outcome.calls, 0);
    assert.equal(outcome.notifications, 2);
    assert.deepEqual((await alerts(t, u)).sort(), [
      `460011:on_digital:US:${dayFrom(now, 0)}`,
      `460012:on_digital:US:${dayFrom(now, -3)}`,
    ]);
    // A day later the film of tomorrow is due; the one of day -3 is now on its 4th day, done.
    clock.advance(DAY);
    assert.equal((await runOnce(t)).notifications, 1);
    assert.ok((await alerts(t, u)).includes(`460014:on_digital:US:${dayFrom(now, 1)}`));
    assert.equal((await alerts(t, u)).length, 3);
  });

  Deno.test(`[${engine}] the kind switches: discs only when switched on, a switched-off kind is not made`, async () => {
    await using w = await world(engine);
    const { t, clock } = w;
    const now = clock.now();
    const u = await createUser(t.deps);
    await choose(t, u, { region: "US", providers: [P(8)] });
    const film = 460_021;
    await save(t, u, [film]);
    await seedReleases(t.store, {
      id: film,
      releases: {
        US: [[LIMITED, dayFrom(now, -1)], [THEATRICAL, dayFrom(now, 5)], [
          PHYSICAL,
          dayFrom(now, 0),
        ]],
      },
      fetchedAt: now - 3_600_000,
    });
    await writeAlertKinds(t.store, u.id, { in_theaters: false });
    assert.equal((await runOnce(t)).notifications, 0, "theaters off, discs off by default");
    await writeAlertKinds(t.store, u.id, { in_theaters: true, on_physical: true });
    clock.advance(3_600_000);
    assert.equal((await runOnce(t)).notifications, 2);
    // The limited release is the earlier theatrical date: in theaters from yesterday.
    assert.deepEqual((await alerts(t, u)).sort(), [
      `${film}:in_theaters:US:${dayFrom(now, -1)}`,
      `${film}:on_physical:US:${dayFrom(now, 0)}`,
    ]);
  });

  Deno.test(`[${engine}] with now streaming switched off, a film newly on my service alerts only the others`, async () => {
    await using w = await world(engine);
    const { t, fake, clock } = w;
    const off = await createUser(t.deps);
    const on = await createUser(t.deps);
    const film = 460_051;
    for (const u of [off, on]) {
      await choose(t, u, { region: "US", providers: [P(8)] });
      await save(t, u, [film]);
    }
    await writeAlertKinds(t.store, off.id, { now_streaming: false });
    await seedMovie(t.store, {
      id: film,
      providers: { US: regionOffers({}) },
      at: clock.now() - 3 * DAY,
    });
    serve(fake, film, { US: regionOffers({ flatrate: [NETFLIX] }) });
    assert.equal((await runOnce(t)).notifications, 1);
    assert.deepEqual((await notes(t, off)).notifications, []);
    assert.equal((await notes(t, on)).notifications[0].kind, "now_streaming");
  });

  Deno.test(`[${engine}] moving to another region alerts the same film and kind once more, there`, async () => {
    await using w = await world(engine);
    const { t, clock } = w;
    const now = clock.now();
    const u = await createUser(t.deps);
    const film = 460_031;
    await choose(t, u, { region: "US", providers: [P(8)] });
    await save(t, u, [film]);
    await seedReleases(t.store, {
      id: film,
      releases: { US: [[THEATRICAL, dayFrom(now, -2)]], GB: [[THEATRICAL, dayFrom(now, 0)]] },
      fetchedAt: now - 3_600_000,
    });
    assert.equal((await runOnce(t)).notifications, 1);
    await choose(t, u, { region: "GB" });
    clock.advance(3_600_000);
    assert.equal((await runOnce(t)).notifications, 1);
    await choose(t, u, { region: "US" });
    clock.advance(3_600_000);
    assert.equal((await runOnce(t)).notifications, 0, "once per film, kind and region");
    assert.deepEqual(await alerts(t, u), [
      `${film}:in_theaters:US:${dayFrom(now, -2)}`,
      `${film}:in_theaters:GB:${dayFrom(now, 0)}`,
    ]);
  });

  Deno.test(`[${engine}] stale release data near a date is fetched again within what the budget leaves, oldest first`, async () => {
    await using w = await world(engine, { AVAILABILITY_BUDGET: "3" });
    const { t, fake, clock } = w;
    const now = clock.now();
    // One film the providers plan takes (My List of a user with services, never fetched).
    const watcher = await createUser(t.deps);
    await choose(t, watcher, { region: "US", providers: [P(8)] });
    await save(t, watcher, [460_041]);
    serveReleases(fake, 460_041, { US: [[THEATRICAL, dayFrom(now, 90)]] });
    // Films on the lists of someone without services, the calendar's films.
    const keeper = await createUser(t.deps);
    const ids = [460_042, 460_043, 460_044, 460_045, 460_046, 460_047, 460_048];
    await save(t, keeper, ids);
    const stale = now - 7 * DAY - 1000;
    const seed = (id: number, date: string, fetchedAt: number) =>
      seedReleases(t.store, { id, releases: { DE: [[DIGITAL, date]] }, fetchedAt });
    await seed(460_042, dayFrom(now, 60), stale - 3 * DAY); // the edge of "near", oldest
    await seed(460_043, dayFrom(now, -60), stale - 2 * DAY); // the edge, the other way
    await seed(460_044, dayFrom(now, 10), stale - DAY);
    await seed(460_045, dayFrom(now, 20), stale);
    await seed(460_046, dayFrom(now, 61), stale - 9 * DAY); // not near
    await seed(460_047, dayFrom(now, -61), stale - 9 * DAY); // not near
    await seed(460_048, dayFrom(now, 5), now - 6 * DAY); // not stale
    for (const id of ids) serveReleases(fake, id, { DE: [[DIGITAL, dayFrom(now, 30)]] });

    // Four films are fetched at once, so each run's set is compared in order of ids.
    const fetched = (from = 0) =>
      fake.requests.filter((r) => r.path.startsWith("/movie/")).map((r) => Number(r.path.slice(7)))
        .slice(from).sort();
    const first = await runOnce(t);
    assert.equal(first.status, "succeeded");
    assert.equal(first.moviesPlanned, 3);
    assert.equal(first.calls, 3);
    assert.deepEqual(fetched(), [460_041, 460_042, 460_043]);
    // What the fetch brought is stored.
    const [row] = await t.store.query<{ release_dates: unknown }>(
      `select release_dates from public.movies where catalog_id = 460042`,
    );
    const stored = typeof row.release_dates === "string"
      ? JSON.parse(row.release_dates)
      : row.release_dates;
    assert.equal(stored.DE[0].date, dayFrom(now, 30));

    // An hour later the providers film is not due; the rest of the stale ones are, and only they.
    clock.advance(3_600_000);
    const second = await runOnce(t);
    assert.equal(second.moviesPlanned, 2);
    assert.equal(second.calls, 2);
    assert.deepEqual(fetched(3), [460_044, 460_045]);
    clock.advance(3_600_000);
    assert.equal((await runOnce(t)).calls, 0, "nothing else is stale and near");
  });
}
