/**
 * The reading pages of a server without TMDB credentials (docs/website.md): a setting, not an
 * outage, so they answer 200 with a note; a movie page explains itself; one warning is logged.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { getByRole, parseHtml, queryAllByRole, textOf } from "./helpers/dom.ts";
import { get } from "./helpers/web.ts";

Deno.test("website: without TMDB credentials the reading pages say so and answer 200", async () => {
  // A fresh `deno task start` has no TMDB key: that is a setting, not an outage, so the home
  // and search pages are 200 with a note (monitoring keeps 5xx for real failures).
  await using app = await testApp();
  for (const path of ["/", "/?page=2", "/search?q=fight"]) {
    const { status, html } = await get(app, path);
    assert.equal(status, 200, path);
    assert.match(textOf(html), /Movie data isn't available yet: .*TMDB_API_KEY/, path);
    getByRole(parseHtml(html), "searchbox", { name: "Search movies" });
  }
  assert.deepEqual(queryAllByRole(parseHtml((await get(app, "/")).html), "alert"), []);
  // A movie page has nothing to show: its error page says why instead of "something broke".
  const detail = await get(app, "/movies/550");
  assert.equal(detail.status, 500);
  assert.match(textOf(detail.html), /no movie database credentials/);
  // One warning for the setting, not an error line per visit.
  const softLines = app.logs.filter((l) => l.code === "catalog_not_configured" && !l.path);
  assert.deepEqual(softLines.map((l) => l.level), ["warn"]);
  assert.ok(!app.logs.some((l) => l.level === "error" && l.path === "/"));
});
