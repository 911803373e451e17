/**
 * My services on the movie page and on /recommendations (docs/availability.md): the
 * where-to-watch section lists the reader's services first and marks them, in their services'
 * region unless they pick another; the recommendations page carries the "Only what I can stream"
 * switch (or a link to choose services), and says without JavaScript that the switch needs it.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { APPLE, MUBI, NETFLIX, P, PRIME, regionOffers } from "./helpers/availability_world.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

const ID = 770_001;

function providerLists(html: string): Record<string, { name: string; mine: boolean }[]> {
  const doc = parseHtml(html);
  const out: Record<string, { name: string; mine: boolean }[]> = {};
  for (const list of doc.querySelectorAll(".where-to-watch ul.providers")) {
    out[list.getAttribute("aria-label") ?? ""] = Array.from(list.querySelectorAll("li")).map(
      (li) => ({
        name: textOf(li.querySelector(".provider-name")!).trim(),
        mine: li.getAttribute("class")?.includes("provider-mine") ?? false,
      }),
    );
  }
  return out;
}

async function choose(t: TestApp, user: TestUser, body: unknown) {
  const res = await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

Deno.test("the movie page lists my services first, marked, in my services' region", async () => {
  await using tmdb = await startFakeTmdb();
  tmdb.movies.set(
    ID,
    detailBody(ID, {
      title: "Tonight's Movie",
      "watch/providers": {
        results: {
          US: regionOffers({ flatrate: [PRIME, MUBI, NETFLIX], rent: [APPLE, NETFLIX] }),
          GB: regionOffers({ flatrate: [NETFLIX], ads: [MUBI] }),
        },
      },
    }),
  );
  await using t = await testApp({ env: tmdbEnv(tmdb) });
  const user = await createUser(t.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };

  // Signed out, and signed in without services: TMDB's order, nothing marked.
  for (const init of [undefined, cookie]) {
    const html = (await get(t, `/movies/${ID}`, init)).html;
    assert.deepEqual(providerLists(html).Stream.map((p) => [p.name, p.mine]), [
      ["Amazon Prime Video", false],
      ["MUBI", false],
      ["Netflix", false],
    ]);
    assert.doesNotMatch(html, /On your services|Your service/);
  }

  await choose(t, user, { region: "US", providers: [P(8), P(11)] });
  let html = (await get(t, `/movies/${ID}`, cookie)).html;
  const lists = providerLists(html);
  // Mine first, each group in TMDB's order; renting from Netflix is not "mine".
  assert.deepEqual(lists.Stream.map((p) => [p.name, p.mine]), [
    ["MUBI", true],
    ["Netflix", true],
    ["Amazon Prime Video", false],
  ]);
  assert.deepEqual(lists.Rent.map((p) => [p.name, p.mine]), [
    ["Apple TV", false],
    ["Netflix", false],
  ]);
  const section = textOf(parseHtml(html).querySelector(".where-to-watch")!);
  assert.match(section, /On your services: MUBI, Netflix\./);
  assert.equal((section.match(/Your service/g) ?? []).length, 2);

  // Services in GB: the page opens on GB, where MUBI only has ads; a region picked in the
  // form still wins, and there nothing of mine may stream.
  await choose(t, user, { region: "GB" });
  html = (await get(t, `/movies/${ID}`, cookie)).html;
  assert.match(textOf(parseHtml(html).querySelector("#watch-heading")!), /United Kingdom/);
  assert.deepEqual(providerLists(html)["Free with ads"], [{ name: "MUBI", mine: true }]);
  await choose(t, user, { providers: [P(9)] });
  html = (await get(t, `/movies/${ID}?region=GB`, cookie)).html;
  assert.match(
    textOf(parseHtml(html).querySelector(".provider-mine-line")!),
    /Not included in your services in United Kingdom/,
  );
});

Deno.test("/recommendations has the Only what I can stream switch once services are chosen", async () => {
  await using t = await testApp();
  const user = await createUser(t.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  const page = async () => {
    const html = (await get(t, "/recommendations", cookie)).html;
    return { html, island: islandsOf(html).find((i) => i.name === "OnlyMineSwitch") };
  };

  let { html, island } = await page();
  assert.equal(island, undefined);
  assert.match(html, /href="\/account#services-heading"/);

  // Antarctica: no stored movie names these providers there, so they show by number.
  await choose(t, user, { region: "AQ", providers: [P(8), 424_242] });
  ({ html, island } = await page());
  assert.deepEqual(island?.props, {
    on: false,
    services: ["provider 990008", "provider 424242"],
    country: "Antarctica",
  });
  // The island's own request: the switch alone, the rest kept.
  await choose(t, user, { onlyMine: true });
  ({ html, island } = await page());
  assert.equal(island?.props.on, true);
  const noscript = parseHtml(html).querySelector("noscript .only-mine-nojs");
  assert.match(noscript ? textOf(noscript) : html, /needs JavaScript to change; it is on now/);
  const settings = await (await t.request("/api/me/services", { headers: user.headers })).json();
  assert.deepEqual(
    [settings.region, settings.providers.map((p: { id: number }) => p.id), settings.onlyMine],
    ["AQ", [P(8), 424_242], true],
  );
});
