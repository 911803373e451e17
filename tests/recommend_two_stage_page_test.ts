/**
 * The recommendations page with the two stages (docs/recommend.md, "Two stages"): the local
 * picks first, free, with their reasons and the user's 👍/👎; "Ask the AI" only when a provider is
 * configured, and a plain sentence when none is. The page generates nothing and spends nothing.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { getByRole, parseHtml, textOf } from "./helpers/dom.ts";
import {
  markWatched,
  numberedMovies,
  recommendWorld,
  seedMovies,
} from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

type LocalCard = { catalogId: number; title: string; reasons: string[]; thumb: number };

Deno.test("/recommendations shows the local picks first, with reasons and 👍/👎 state, above Ask the AI, spending nothing", async () => {
  await using w = await recommendWorld();
  const page = async () => {
    const { status, html } = await get(w.t, "/recommendations", {
      headers: { cookie: sessionCookie(w.user.token, w.user.email) },
    });
    assert.equal(status, 200);
    const islands = islandsOf(html);
    const cards = islands.find((i) => i.name === "LocalPicks")!.props.cards as LocalCard[];
    return { html, names: islands.map((i) => i.name), cards };
  };
  const before = await page();
  assert.equal(before.cards.length, 12);
  for (const card of before.cards) {
    // Never a watched film (1-10) or a My List film (11-14).
    assert.ok(card.catalogId > 14, `card ${card.catalogId}`);
    assert.ok(card.reasons.length > 0);
    assert.equal(card.thumb, 0);
  }
  assert.ok(before.names.indexOf("LocalPicks") < before.names.indexOf("Recommendations"));
  const liked = before.cards[1].catalogId;
  await w.t.store.query(
    `insert into public.recommend_feedback (user_id, catalog_id, value) values ($1, $2, 1)`,
    [w.user.id, liked],
  );
  const { html, cards } = await page();
  assert.equal(cards.find((c) => c.catalogId === liked)?.thumb, 1);
  const doc = parseHtml(html);
  const headings = [...doc.querySelectorAll("main h2[id]")].map((h) => textOf(h));
  assert.deepEqual(headings, ["Picked from your history", "Ask the AI"]);
  getByRole(doc, "button", { name: `Thumbs up: ${cards[0].title}` });
  getByRole(doc, "button", { name: "Get recommendations" });
  // Reading the page asked no AI and spent nothing.
  assert.equal(w.ai.requests.length, 0);
  assert.equal((await (await w.get("/api/recommend/quota")).json()).used, 0);
});

Deno.test("/recommendations leaves out of the local picks the films of the stored AI set", async () => {
  await using w = await recommendWorld();
  const set = (await (await w.get("/api/recommend")).json()).recommendations as number[];
  const { html } = await get(w.t, "/recommendations", {
    headers: { cookie: sessionCookie(w.user.token, w.user.email) },
  });
  const cards = islandsOf(html).find((i) => i.name === "LocalPicks")!.props.cards as LocalCard[];
  assert.ok(cards.length > 0);
  for (const card of cards) {
    assert.ok(!set.includes(card.catalogId), `film ${card.catalogId} twice`);
  }
});

Deno.test("/recommendations without a provider shows only the local picks and says so plainly", async () => {
  await using t = await testApp();
  await seedMovies(t.store, numberedMovies(1, 40));
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, [1, 2, 3]);
  const { status, html } = await get(t, "/recommendations", {
    headers: { cookie: sessionCookie(user.token, user.email) },
  });
  assert.equal(status, 200);
  const names = islandsOf(html).map((i) => i.name);
  assert.ok(names.includes("LocalPicks"));
  assert.ok(!names.includes("Recommendations"), "Ask the AI without a provider");
  assert.match(
    textOf(html),
    /This server has no AI set up, so these picks are all there is/,
  );
  assert.doesNotMatch(textOf(html), /Ask the AI/);
});

Deno.test("/recommendations: each AI pick has 👍, pressed when the user gave it", async () => {
  await using w = await recommendWorld();
  const set = (await (await w.get("/api/recommend")).json()).recommendations as number[];
  await w.t.store.query(
    `insert into public.recommend_feedback (user_id, catalog_id, value) values ($1, $2, 1)`,
    [w.user.id, set[0]],
  );
  const { html } = await get(w.t, "/recommendations", {
    headers: { cookie: sessionCookie(w.user.token, w.user.email) },
  });
  const picks = (islandsOf(html).find((i) => i.name === "Recommendations")!.props.set as {
    picks: { catalogId: number; title: string; thumb: number }[];
  }).picks;
  assert.deepEqual(picks.map((p) => p.thumb), set.map((id) => (id === set[0] ? 1 : 0)));
  const doc = parseHtml(html);
  const up = getByRole(doc, "button", { name: `Thumbs up: ${picks[0].title}` });
  assert.equal(up.getAttribute("aria-pressed"), "true");
  const other = getByRole(doc, "button", { name: `Thumbs up: ${picks[1].title}` });
  assert.equal(other.getAttribute("aria-pressed"), "false");
});
