/**
 * GET /api/calendar (docs/calendar.md): the release dates of a user's films in their region,
 * the earliest elsewhere marked with its region, by date; lists, types and the date bounds at
 * their edges, on both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/calendar answers My List's releases in the user's region by date, others marked with their region`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const res = await t.request("/api/calendar", { headers: u.headers });
    assert.equal(res.status, 200);
    const image = t.deps.config.tmdb.imageBaseUrl.replace(/\/+$/, "");
    const base = { note: "", certification: "" };
    assert.deepEqual(await res.json(), {
      region: "US",
      events: [
        // The limited release (type 2) before the wide one; the premiere of September is
        // before the default span (30 days back).
        {
          ...base,
          date: "2026-11-10",
          type: "theatrical",
          catalogId: 946105,
          title: "Early Show",
          year: 2026,
          poster: `${image}/w342/early.jpg`,
        },
        {
          ...base,
          date: "2026-12-04",
          type: "theatrical",
          catalogId: 946101,
          title: "Arrival Day",
          year: 2026,
          poster: `${image}/w342/arrival.jpg`,
          certification: "PG-13",
        },
        {
          ...base,
          date: "2027-01-10",
          type: "digital",
          catalogId: 946101,
          title: "Arrival Day",
          year: 2026,
          poster: `${image}/w342/arrival.jpg`,
        },
        {
          ...base,
          date: "2027-02-01",
          type: "digital",
          catalogId: 946102,
          title: "Border Line",
          year: 2027,
          poster: null,
          region: "DE",
        },
        {
          ...base,
          date: "2027-03-01",
          type: "physical",
          catalogId: 946102,
          title: "Border Line",
          year: 2027,
          poster: null,
          note: "Blu-ray",
          region: "FR",
        },
      ],
    });
  });

  Deno.test(`[${engine}] GET /api/calendar reads the region of My services, the watched list, every own list and the types asked for`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    await t.store.query("insert into public.user_services (user_id, region) values ($1, 'GB')", [
      u.id,
    ]);
    const get = async (query: string) => {
      const res = await t.request(`/api/calendar?${query}`, { headers: u.headers });
      assert.equal(res.status, 200, query);
      const body = await res.json();
      assert.equal(body.region, "GB");
      return body.events.map((
        e: { catalogId: number; type: string; date: string; region?: string },
      ) => `${e.date} ${e.catalogId} ${e.type}${e.region ? ` ${e.region}` : ""}`);
    };
    assert.deepEqual(await get("types=theatrical,digital"), [
      "2026-11-10 946105 theatrical US",
      "2026-12-11 946101 theatrical",
      "2027-01-10 946101 digital US",
      "2027-02-01 946102 digital DE",
    ]);
    assert.deepEqual(await get("list=watched"), ["2026-11-30 946103 theatrical US"]);
    assert.deepEqual(await get("list=all&types=tv,theatrical"), [
      "2026-11-10 946105 theatrical US",
      "2026-11-30 946103 theatrical US",
      "2026-12-11 946101 theatrical",
      "2026-12-20 946104 tv US",
    ]);
    assert.deepEqual(await get("types=premiere&from=2026-09-01&to=2026-09-01"), [
      "2026-09-01 946105 premiere US",
    ]);
  });

  Deno.test(`[${engine}] GET /api/calendar: from and to are inclusive and at most 400 days apart; bad dates, types and lists are 400 invalid_query`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const get = (query: string) => t.request(`/api/calendar?${query}`, { headers: u.headers });
    // One day, both bounds on the event's day.
    const one = await (await get("from=2026-12-04&to=2026-12-04")).json();
    assert.deepEqual(one.events.map((e: { catalogId: number }) => e.catalogId), [946101]);
    // 400 days apart is allowed, 401 is not.
    const wide = await get("from=2026-01-01&to=2027-02-05");
    assert.equal(wide.status, 200);
    assert.equal((await wide.json()).events.length, 5);
    await problem(await get("from=2026-01-01&to=2027-02-06"), 400, "invalid_query");
    // One bound alone takes the default span (210 days) from it.
    const fromOnly = await (await get("from=2027-02-01")).json();
    assert.deepEqual(fromOnly.events.map((e: { date: string }) => e.date), [
      "2027-02-01",
      "2027-03-01",
    ]);
    for (
      const bad of [
        "from=2026-12-05&to=2026-12-04",
        "from=2026-02-30",
        "from=20261201",
        "to=2026-12-01T00:00:00Z",
        "types=theatrical,cinema",
        "types=",
        "types=Digital",
        "list=lists",
        "list=",
        "region=GB",
        "from=2026-12-01&from=2026-12-02",
      ]
    ) {
      await problem(await get(bad), 400, "invalid_query", bad);
    }
    await problem(await t.request("/api/calendar"), 401, "unauthorized");
  });
}
