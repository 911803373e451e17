/**
 * The recommendations page on the server (docs/recommend.md, issue 16): the stored set is
 * rendered on load with each pick's reason, its My List state and the set's dates, without
 * generating, taking the lock or spending quota.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { consumeQuota } from "../lib/recommend/quota.ts";
import { markWatched, recommendWorld } from "./helpers/recommend_world.ts";
import { getByRole, parseHtml, queryAllByRole, textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

type Pick = { catalogId: number; reason: string; inMyList: boolean; title: string };
type SetProps = { picks: Pick[]; createdAt: string; expiresAt: string; fresh: boolean };

async function used(w: { get(path: string): Promise<Response> }): Promise<number> {
  return (await (await w.get("/api/recommend/quota")).json()).used;
}

async function page(w: Awaited<ReturnType<typeof recommendWorld>>) {
  const cookie = { cookie: sessionCookie(w.user.token, w.user.email) };
  const { status, html } = await get(w.t, "/recommendations", { headers: cookie });
  assert.equal(status, 200);
  const island = islandsOf(html).find((i) => i.name === "Recommendations");
  assert.ok(island, "no Recommendations island");
  return { html, text: textOf(html), set: island.props.set as SetProps | null, island };
}

Deno.test("/recommendations renders the stored set with reasons and dates on load, spending nothing", async () => {
  const clock = new FakeClock(Date.parse("2026-11-23T14:05:00Z"));
  await using w = await recommendWorld({ clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
  const stored = await (await w.get("/api/recommend/current")).json();
  const calls = w.ai.requests.length;

  const { html, text, set, island } = await page(w);
  assert.ok(set);
  assert.deepEqual(
    set.picks.map((p) => p.catalogId),
    stored.recommendations.map((r: { catalogId: number }) => r.catalogId),
  );
  const first = set.picks[0];
  assert.equal(first.reason, `Because you like ${first.title}.`);
  // The cards are in the HTML itself: reason, title link and the three quick actions.
  const doc = parseHtml(html);
  const card = getByRole(doc, "link", { name: first.title }).closest("article")!;
  assert.equal(
    getByRole(card, "link", { name: first.title }).getAttribute("href"),
    `/movies/${first.catalogId}`,
  );
  assert.match(textOf(card), new RegExp(`Because you like ${first.title}\\.`));
  const actions = queryAllByRole(card, "button").map((b) => textOf(b).replace(/^✓ /, ""));
  assert.deepEqual(actions, ["Mark watched", "My List", "Not interested", "👍", "Add to list"]);
  assert.match(text, /Made 23 Nov 2026, 14:05 UTC ?, kept until 30 Nov 2026 ?\./);
  getByRole(doc, "button", { name: "Refresh" });
  assert.deepEqual(island.props.quota, {
    limit: 20,
    remaining: 19,
    resetAt: "2026-11-24T00:00:00.000Z",
  });
  assert.match(text, /19 of 20 requests left today/);
  // Reading the page generated nothing and spent nothing.
  assert.equal(w.ai.requests.length, calls);
  assert.equal(await used(w), 1);
});

Deno.test("/recommendations without a stored set offers to get some and generates nothing", async () => {
  await using w = await recommendWorld();
  const { html, text, set } = await page(w);
  assert.equal(set, null);
  getByRole(parseHtml(html), "button", { name: "Get recommendations" });
  assert.match(text, /You have no recommendations yet/);
  assert.equal(w.ai.requests.length, 0);
  assert.equal(await used(w), 0);
});

Deno.test("/recommendations leaves out picks watched since, shows My List state, and marks the set not fresh", async () => {
  await using w = await recommendWorld();
  assert.equal((await w.get("/api/recommend")).status, 200);
  const before = (await page(w)).set!;
  // The world's My List movies may be recommended (last, at most two).
  const saved = before.picks.filter((p) => p.inMyList).map((p) => p.catalogId);
  assert.ok(saved.length >= 1 && saved.length <= 2, JSON.stringify(before.picks));
  const watchedNow = before.picks[0].catalogId;
  await markWatched(w.t.store, w.user.id, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, watchedNow]);

  const { set, text } = await page(w);
  assert.ok(set);
  assert.ok(!set.picks.some((p) => p.catalogId === watchedNow));
  assert.equal(set.picks.length, before.picks.length - 1);
  assert.equal(set.fresh, false);
  assert.match(text, /You've watched more since this set was made/);
});

Deno.test("/recommendations drops a dismissed pick at once", async () => {
  await using w = await recommendWorld();
  assert.equal((await w.get("/api/recommend")).status, 200);
  const before = (await page(w)).set!;
  const gone = before.picks[1].catalogId;
  const token = { authorization: `Bearer ${w.user.token}`, "content-type": "application/json" };
  const res = await w.t.request("/api/recommend/dismissed", {
    method: "POST",
    headers: token,
    body: JSON.stringify({ catalogId: gone }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const { set } = await page(w);
  assert.deepEqual(
    set!.picks.map((p) => p.catalogId),
    before.picks.map((p) => p.catalogId).filter((id) => id !== gone),
  );
});

Deno.test("/recommendations explains Refresh and Get new, and at 0 requests left shows both unavailable until the reset", async () => {
  const clock = new FakeClock(Date.parse("2026-11-23T14:05:00Z"));
  await using w = await recommendWorld({ clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
  let { html, text } = await page(w);
  assert.match(text, /Refresh makes a new set from what you've watched and rated so far/);
  assert.match(text, /Get new ones leaves out every movie shown here/);
  let doc = parseHtml(html);
  for (const name of ["Refresh", "Get new ones"]) {
    assert.equal(getByRole(doc, "button", { name }).getAttribute("aria-disabled"), null);
  }
  while (await consumeQuota(w.t.kv, w.user.id, { clock })) { /* spend the day's requests */ }
  ({ html, text } = await page(w));
  doc = parseHtml(html);
  for (const name of ["Refresh", "Get new ones"]) {
    const button = getByRole(doc, "button", { name });
    assert.equal(button.getAttribute("aria-disabled"), "true", name);
    assert.match(button.getAttribute("aria-describedby") ?? "", /rec-quota/);
  }
  // The server cannot know the reader's zone: it says UTC, and the browser rewrites it locally.
  assert.match(text, /No requests left today \(20 a day\)\. More after 00:00 UTC ?\./);
  assert.match(html, /<time datetime="2026-11-24T00:00:00.000Z">00:00 UTC<\/time>/);
});
