/**
 * GET /api/providers on a new instance (docs/availability.md, "My services"): while no movie of a
 * region has stored providers, the region's main services from the list kept in the repository,
 * so the first user can choose at once; stored providers replace them.
 */
import assert from "node:assert/strict";
import {
  MAJOR_PROVIDER_REGIONS,
  majorProviders,
} from "@/lib/catalog/my_streaming/major_providers.ts";
import { regionCode } from "@/lib/core/regions.ts";
import { getJson, testApp } from "./helpers/app.ts";
import { NETFLIX, P, regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

const IMG = "https://image.tmdb.org/t/p";
const MAJOR = ["US", "GB", "CA", "AU", "DE", "FR", "ES", "IT", "NL", "BR", "MX", "IN", "JP"];

Deno.test("the main-services list covers every major region with at least 3 TMDB providers each", () => {
  for (const region of MAJOR) assert.ok(MAJOR_PROVIDER_REGIONS.includes(region), region);
  for (const region of MAJOR_PROVIDER_REGIONS) {
    assert.equal(regionCode(region), region);
    const list = majorProviders(region, IMG);
    assert.ok(list.length >= 3 && list.length <= 8, `${region}: ${list.length}`);
    assert.equal(new Set(list.map((p) => p.id)).size, list.length, `${region}: an id twice`);
    for (const p of list) {
      assert.ok(Number.isInteger(p.id) && p.id > 0, `${region}: ${p.id}`);
      assert.ok(p.name.length > 0 && p.name === p.name.trim(), `${region}: ${p.id}`);
      assert.match(p.logo, /^https:\/\/image\.tmdb\.org\/t\/p\/w92\/[A-Za-z0-9]{20,40}\.jpg$/);
      assert.equal(p.movies, 0);
    }
  }
  // TMDB keys Amazon Prime Video as 9 in some regions and 119 in the others.
  assert.deepEqual(majorProviders("US", IMG).slice(0, 2).map((p) => [p.id, p.name]), [
    [8, "Netflix"],
    [9, "Amazon Prime Video"],
  ]);
  assert.ok(majorProviders("FR", IMG).some((p) => p.id === 119));
  assert.deepEqual(majorProviders("AQ", IMG), []);
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/providers offers a region's main services until a movie of it has stored providers`, async () => {
    await using t = await testApp({ engine });
    const first = await getJson(t, "/api/providers?region=gb");
    assert.equal(first.status, 200);
    assert.equal(first.body.region, "GB");
    assert.ok(first.body.providers.length >= 3);
    assert.deepEqual(first.body.providers[0], {
      id: 8,
      name: "Netflix",
      logo: `${IMG}/w92/t2yyOv40HZeVlLjYsCsPHnWLk4W.jpg`,
      movies: 0,
    });
    // A region the list does not cover, with nothing stored: still empty.
    assert.deepEqual((await getJson(t, "/api/providers?region=AQ")).body.providers, []);

    // Once a movie of the region has stored providers, those replace the list (after the
    // region's 5-minute cache).
    await seedMovie(t.store, {
      id: 7001,
      providers: { GB: regionOffers({ flatrate: [NETFLIX] }) },
    });
    t.clock.advance(5 * 60_000 + 1);
    assert.deepEqual((await getJson(t, "/api/providers?region=GB")).body.providers, [
      { id: P(8), name: "Netflix", logo: `${IMG}/w92/netflix.jpg`, movies: 1 },
    ]);
  });

  Deno.test(`[${engine}] a service chosen from the main list keeps its name and logo in GET /api/me/services`, async () => {
    await using t = await testApp({ engine, env: { WATCH_REGION: "DE" } });
    const user = await createUser(t.deps);
    const res = await t.request("/api/me/services", {
      method: "PUT",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ providers: [8, 30, 424242] }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).providers, [
      { id: 8, name: "Netflix", logo: `${IMG}/w92/t2yyOv40HZeVlLjYsCsPHnWLk4W.jpg` },
      { id: 30, name: "WOW", logo: `${IMG}/w92/MiVcYLkztM6qqLeVSYWHFCUcXx.jpg` },
      { id: 424242, name: "", logo: "" },
    ]);
    // Stored providers arrive: a chosen service they do not list still has the list's name.
    await seedMovie(t.store, {
      id: 7002,
      providers: { DE: regionOffers({ flatrate: [NETFLIX] }) },
    });
    t.clock.advance(5 * 60_000 + 1);
    const mine = await getJson(
      { request: (p) => t.request(p, { headers: user.headers }) },
      "/api/me/services",
    );
    assert.deepEqual(mine.body.providers.map((p: { name: string }) => p.name), [
      "Netflix",
      "WOW",
      "",
    ]);
  });
}

Deno.test("website: My services on /account offers the region's main services on a new instance", async () => {
  await using t = await testApp({ env: { WATCH_REGION: "JP" } });
  const user = await createUser(t.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  const { html } = await get(t, "/account", cookie);
  const form = islandsOf(html).find((i) => i.name === "MyStreaming")!.props as {
    region: string;
    providers: { id: number; name: string }[];
  };
  assert.equal(form.region, "JP");
  assert.deepEqual(
    form.providers.map((p) => p.id),
    majorProviders("JP", IMG).map((p) => p.id),
  );
  assert.ok(form.providers.length >= 3);
  assert.doesNotMatch(html, /No streaming services are known/);
  assert.match(html, /U-NEXT/);
});
