import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { getJson, testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import {
  APPLE,
  MUBI,
  NETFLIX,
  P,
  PRIME,
  regionOffers,
  seedMovie,
} from "./helpers/availability_world.ts";

const IMG = "https://image.tmdb.org/t/p";

async function put(
  t: { request(p: string, i?: RequestInit): Promise<Response> },
  headers: Record<string, string>,
  body: unknown,
) {
  return await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/me/services answers the defaults, PUT changes only the fields given`, async () => {
    await using t = await testApp({ engine, env: { WATCH_REGION: "GB" } });
    const user = await createUser(t.deps);
    await seedMovie(t.store, { id: 1, providers: { GB: regionOffers({ flatrate: [NETFLIX] }) } });
    let res = await getJson(t, "/api/me/services" as string);
    assert.equal(res.status, 401);
    res = await getJson(
      { request: (p) => t.request(p, { headers: user.headers }) },
      "/api/me/services",
    );
    assert.deepEqual(res.body, {
      region: "GB",
      providers: [],
      onlyMine: false,
      emailAlerts: false,
    });

    let answer = await put(t, user.headers, { providers: [P(8), P(8), P(9)] });
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), {
      region: "GB",
      providers: [
        { id: P(8), name: "Netflix", logo: `${IMG}/w92/netflix.jpg` },
        // Not listed by any stored movie of the region: kept, without a name.
        { id: P(9), name: "", logo: "" },
      ],
      onlyMine: false,
      emailAlerts: false,
    });
    answer = await put(t, user.headers, { region: "de", onlyMine: true });
    assert.deepEqual(await answer.json(), {
      region: "DE",
      providers: [{ id: P(8), name: "", logo: "" }, { id: P(9), name: "", logo: "" }],
      onlyMine: true,
      emailAlerts: false,
    });
    answer = await put(t, user.headers, { emailAlerts: true, providers: [] });
    assert.deepEqual(await answer.json(), {
      region: "DE",
      providers: [],
      onlyMine: true,
      emailAlerts: true,
    });
    const again = await t.request("/api/me/services", { headers: user.headers });
    assert.deepEqual((await again.json()).emailAlerts, true);
  });

  Deno.test(`[${engine}] PUT /api/me/services refuses a bad region, bad providers and bad bodies, storing nothing`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    assert.equal((await put(t, user.headers, { providers: [P(8)], region: "FR" })).status, 200);
    const fifty = Array.from({ length: 50 }, (_, i) => i + 1);
    const cases: [unknown, string][] = [
      [{ region: "XX" }, "invalid_region"],
      [{ region: "USA" }, "invalid_region"],
      [{ region: 12 }, "invalid_region"],
      [{ region: "" }, "invalid_region"],
      [{ providers: [0] }, "invalid_providers"],
      [{ providers: [-3] }, "invalid_providers"],
      [{ providers: [1.5] }, "invalid_providers"],
      [{ providers: ["8"] }, "invalid_providers"],
      [{ providers: 8 }, "invalid_providers"],
      [{ providers: [...fifty, 51] }, "invalid_providers"],
      [{ providers: [2 ** 31] }, "invalid_providers"],
      [{ onlyMine: "yes" }, "invalid_body"],
      [{ emailAlerts: null }, "invalid_body"],
      [{ provider: [8] }, "invalid_body"],
      [[8], "invalid_body"],
      ["not json", "invalid_body"],
    ];
    for (const [body, code] of cases) {
      const res = await put(t, user.headers, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal((await res.json()).code, code, JSON.stringify(body));
    }
    // 50 distinct ids (duplicates counted once) is the edge that passes.
    const edge = await put(t, user.headers, { providers: [...fifty, 50, 1] });
    assert.equal(edge.status, 200);
    const body = await edge.json();
    assert.equal(body.providers.length, 50);
    assert.equal(body.region, "FR");
  });

  Deno.test(`[${engine}] GET /api/providers lists the region's stored streaming providers, most movies first`, async () => {
    await using t = await testApp({ engine });
    await seedMovie(t.store, {
      id: 4001,
      providers: {
        TV: regionOffers({ flatrate: [NETFLIX, PRIME], rent: [APPLE] }),
        NR: regionOffers({ free: [MUBI] }),
      },
    });
    await seedMovie(t.store, { id: 4002, providers: { TV: regionOffers({ ads: [PRIME] }) } });
    await seedMovie(t.store, {
      id: 4003,
      providers: { TV: { flatrate: [{ provider_name: "No id" }], free: "odd", buy: [APPLE] } },
    });
    await seedMovie(t.store, { id: 4004 });
    const res = await getJson(t, "/api/providers?region=tv");
    assert.equal(res.status, 200);
    // A PostgreSQL test database holds other tests' movies too: only this test's providers count.
    res.body.providers = res.body.providers.filter((p: { id: number }) => p.id > P(0));
    assert.deepEqual(res.body, {
      region: "TV",
      providers: [
        { id: P(9), name: "Amazon Prime Video", logo: `${IMG}/w92/prime.jpg`, movies: 2 },
        { id: P(8), name: "Netflix", logo: `${IMG}/w92/netflix.jpg`, movies: 1 },
      ],
    });
    assert.deepEqual(
      (await getJson(t, "/api/providers?region=NR")).body.providers
        .map((p: { id: number }) => p.id).filter((id: number) => id > P(0)),
      [P(11)],
    );
    assert.deepEqual((await getJson(t, "/api/providers")).body.region, "US");
    assert.equal((await getJson(t, "/api/providers?region=FR")).body.region, "FR");
    const bad = await getJson(t, "/api/providers?region=ZZ");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, "invalid_region");
  });

  Deno.test(`[${engine}] user_services: row-level security keeps users apart and account deletion removes the row`, async () => {
    await using t = await testApp({ engine });
    const a = await createUser(t.deps);
    const b = await createUser(t.deps);
    assert.equal((await put(t, a.headers, { providers: [P(8)] })).status, 200);
    const seen = await t.store.asUser(
      b.id,
      (tx) => tx.query(`select user_id from public.user_services`),
    );
    assert.deepEqual(seen, []);
    await assert.rejects(
      t.store.asUser(
        b.id,
        (tx) =>
          tx.query(`insert into public.user_services (user_id, region) values ($1, 'US')`, [a.id]),
      ),
    );
    const res = await t.request("/api/account", {
      method: "DELETE",
      headers: { ...a.headers, "content-type": "application/json" },
      body: JSON.stringify({ confirm: "delete my account" }),
    });
    assert.equal(res.status, 204);
    const left = await t.store.query(`select 1 from public.user_services where user_id = $1`, [
      a.id,
    ]);
    assert.deepEqual(left, []);
  });
}
