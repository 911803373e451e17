/**
 * What a newcomer meets on the server-rendered pages: the next step after sign-up, a word after
 * the account is deleted, popular pages told apart by their titles, and a movie's missing facts
 * named instead of left out.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { getByRole, parseHtml, textOf } from "./helpers/dom.ts";
import { get } from "./helpers/web.ts";

Deno.test("website: first run, goodbye, popular page titles and missing facts", async (t) => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: tmdbEnv(tmdb) });

  await t.step(
    "/?notice=welcome offers the next step: import a history or rate a few",
    async () => {
      const doc = parseHtml((await get(app, "/?notice=welcome")).html);
      getByRole(doc, "heading", { name: "Welcome! Your account is ready.", level: 2 });
      assert.equal(
        getByRole(doc.querySelector(".welcome")!, "link", { name: "Import your history" })
          .getAttribute("href"),
        "/import",
      );
      assert.match(textOf(doc.querySelector(".welcome")!), /mark them watched and rate them/);
    },
  );

  await t.step(
    "/?notice=account-deleted says the account is gone; other notices say nothing",
    async () => {
      assert.match(
        textOf((await get(app, "/?notice=account-deleted")).html),
        /Your account is deleted, with your lists, ratings, notes and recommendations\./,
      );
      const plain = await get(app, "/?notice=<b>hi</b>");
      assert.doesNotMatch(plain.html, /notice-note|hi<\/b>/);
    },
  );

  await t.step("popular pages 2 and 3 have titles of their own", async () => {
    for (const page of [2, 3]) {
      const doc = parseHtml((await get(app, `/?page=${page}`)).html);
      assert.equal(doc.title, `Popular movies · page ${page} · Movies`);
    }
  });

  await t.step("a movie with no rating or date says so", async () => {
    tmdb.movies.set(777001, detailBody(777001, { vote_average: 0, release_date: "" }));
    const { status, html } = await get(app, "/movies/777001");
    assert.equal(status, 200);
    const facts = textOf(parseHtml(html).querySelector(".movie-facts")!);
    assert.match(facts, /Not rated yet/);
    assert.match(facts, /Release date not known yet/);
  });
});
