/**
 * Every dismissed movie is named in the prompt (docs/recommend.md, "Reasons, dismissals and where to watch"): a pick resolved from a
 * catalog search hit is stored as a light row, and a dismissed id the movies store lacks is
 * looked up through the catalog before the prompt is built.
 */
import assert from "node:assert/strict";
import { recommendationsContent } from "./helpers/fake_ai.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { listRow } from "./helpers/history_import_world.ts";
import { POOL, type RecommendWorld, recommendWorld } from "./helpers/recommend_world.ts";

async function dismiss(w: RecommendWorld, catalogId: number) {
  const res = await w.t.request("/api/recommend/dismissed", {
    method: "POST",
    headers: { ...w.user.headers, "content-type": "application/json" },
    body: JSON.stringify({ catalogId }),
  });
  assert.equal(res.status, 200, await res.text());
}

function notInterested(w: RecommendWorld): string[] {
  const prompt = w.ai.requests.at(-1)!.body.messages[1].content as string;
  const section = prompt.split("Not interested")[1] ?? "";
  return section.split("\n").filter((l) => l.startsWith("- "));
}

Deno.test("a dismissed id the movies store lacks is looked up through the catalog and named in the prompt", async () => {
  await using fake = await startFakeTmdb();
  fake.movies.set(
    9001,
    detailBody(9001, { title: "Never Stored", release_date: "2019-05-05" }),
  );
  await using w = await recommendWorld({ env: tmdbEnv(fake) });
  await dismiss(w, 9001);
  await dismiss(w, 21);
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200, await res.text());
  assert.deepEqual(notInterested(w).sort(), ["- Film 21 (2011)", "- Never Stored (2019)"]);
  assert.equal(fake.requests.filter((r) => r.path === "/movie/9001").length, 1);
  assert.equal(fake.requests.filter((r) => r.path === "/movie/21").length, 0, "a stored one");
});

Deno.test("a pick resolved from a search hit is stored as a light row, so its dismissal is named without a lookup", async () => {
  await using fake = await startFakeTmdb();
  const hit = { id: 8001, title: "Searched Film", release_date: "2018-03-03" };
  fake.search = () => ({ page: 1, results: [listRow(hit)], total_pages: 1, total_results: 1 });
  await using w = await recommendWorld({ env: tmdbEnv(fake) });
  w.ai.fallback = () => ({
    content: recommendationsContent([
      { title: "Searched Film", year: 2018 },
      ...POOL.slice(20, 30),
    ]),
  });
  const first = await (await w.get("/api/recommend")).json();
  assert.ok(first.recommendations.includes(8001), JSON.stringify(first));
  const [row] = await w.t.store.query<{ title: string; year: number; has_details: boolean }>(
    "select title, year, has_details from public.movies where catalog_id = 8001",
  );
  assert.deepEqual({ ...row, year: Number(row?.year) }, {
    title: "Searched Film",
    year: 2018,
    has_details: false,
  });

  await dismiss(w, 8001);
  const again = await w.get("/api/recommend?refresh=1");
  assert.equal(again.status, 200, await again.text());
  assert.deepEqual(notInterested(w), ["- Searched Film (2018)"]);
  assert.equal(fake.requests.filter((r) => r.path === "/movie/8001").length, 0);
});
