/**
 * The diary on the website (server rendering, no JavaScript): /diary by month with rewatch
 * marks, /stats and /stats/YYYY with SVG charts and their tables, the home page's queue of
 * what to rate.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";
import { send } from "./helpers/watched_entries.ts";

Deno.test("website: the diary, the year in review and the rating queue render on the server", async (t) => {
  await using app = await testApp({ clock: new FakeClock("2025-12-31T12:00:00Z") });
  const user = await createUser(app.deps, { email: "diarist@example.test" });
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  for (
    const v of [
      { catalogId: 1_900_002_001, watchedOn: "2025-01-10", rating: 8 },
      { catalogId: 1_900_002_001, watchedOn: "2025-03-05", rating: 10 },
      { catalogId: 1_900_002_002, watchedOn: "2025-03-20" },
    ]
  ) {
    assert.equal((await app.request("/api/diary", send(user, "POST", v))).status, 201);
  }

  await t.step(
    "/diary groups the viewings by month, newest first, with the rewatch mark",
    async () => {
      const { status, html } = await get(app, "/diary", cookie);
      assert.equal(status, 200);
      const doc = parseHtml(html);
      assert.deepEqual(
        [...doc.querySelectorAll(".diary-month h2")].map((h) => textOf(h)),
        ["March 2025", "January 2025"],
      );
      const list = islandsOf(html).find((i) => i.name === "DiaryList");
      assert.ok(list, "no DiaryList");
      const entries = list.props.entries as { watchedOn: string; rewatch: boolean }[];
      assert.deepEqual(
        entries.map((e) => [e.watchedOn, e.rewatch]),
        [["2025-03-20", false], ["2025-03-05", true], ["2025-01-10", false]],
      );
    },
  );

  await t.step("/stats/2025 draws the months and ratings as SVG, with tables", async () => {
    const { status, html } = await get(app, "/stats/2025", cookie);
    assert.equal(status, 200);
    const doc = parseHtml(html);
    assert.equal(textOf(doc.querySelector("h1")!), "2025 in review");
    assert.equal(doc.querySelectorAll("figure.chart svg").length, 2);
    assert.equal(doc.querySelectorAll("figure.chart svg rect.chart-bar").length, 22);
    const months = doc.querySelector("figure.chart table")!;
    const cells = [...months.querySelectorAll("tbody tr")].map((tr) => textOf(tr));
    assert.equal(cells.length, 12);
    assert.match(cells[2], /March\s*2/);
    const figures = [...doc.querySelectorAll(".review-figures dd")].map((d) => textOf(d));
    assert.deepEqual(figures.slice(0, 3), ["2", "3", "1"]);
    // No island draws any of it: the page works, and prints, without JavaScript.
    const names = islandsOf(html).map((i) => i.name);
    assert.deepEqual(names.filter((n) => n !== "SignOutButton" && n !== "SessionRefresh"), []);
  });

  await t.step(
    "/stats is all time; a year that is not one is 404; signed out asks to sign in",
    async () => {
      const all = await get(app, "/stats", cookie);
      assert.equal(all.status, 200);
      assert.match(all.html, /all time/);
      assert.equal((await get(app, "/stats/20x5", cookie)).status, 404);
      const out = await get(app, "/stats/2025");
      assert.equal(out.status, 200);
      assert.match(out.html, /Sign in/);
    },
  );

  await t.step("the home page asks to rate what was watched without a rating", async () => {
    const { html } = await get(app, "/", cookie);
    const queue = islandsOf(html).find((i) => i.name === "RateQueue");
    assert.ok(queue, "no RateQueue");
    const movies = queue.props.movies as { catalogId: number }[];
    assert.deepEqual(movies.map((m) => m.catalogId), [1_900_002_002]);
    assert.match(html, /Rate what you watched/);
    const out = await get(app, "/");
    assert.ok(!islandsOf(out.html).some((i) => i.name === "RateQueue"));
  });
});
