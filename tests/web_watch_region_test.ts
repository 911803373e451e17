/**
 * The movie page's region for where to watch: countries chosen by name (GB is the United
 * Kingdom), "UK" read as GB instead of silently falling back to US, and the choice remembered.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { getByRole, parseHtml, textOf } from "./helpers/dom.ts";
import { get } from "./helpers/web.ts";

Deno.test("/movies/:id: countries by name, UK is GB, and the choice is remembered", async () => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: tmdbEnv(tmdb) });
  const doc = parseHtml((await get(app, "/movies/550")).html);
  // Countries by name, the current one chosen; GB is the United Kingdom.
  const select = getByRole(doc, "combobox", { name: "Country" });
  assert.equal(select.querySelector("option[selected]")?.textContent, "United States");
  assert.equal(select.querySelector('option[value="GB"]')?.textContent, "United Kingdom");

  // "UK" is what people type for the United Kingdom: it is GB, not the default.
  const uk = await get(app, "/movies/550?region=UK");
  assert.match(textOf(uk.html), /Where to watch in United Kingdom/);
  // The choice is remembered: a later visit without ?region= shows it again.
  const cookie = uk.headers.get("set-cookie") ?? "";
  assert.match(cookie, /^watch-region=GB; Path=\/; Max-Age=31536000; SameSite=Lax$/);
  const again = await get(app, "/movies/550", { headers: { cookie: "watch-region=GB" } });
  assert.match(textOf(again.html), /Where to watch in United Kingdom/);
  // A region asked for in the URL wins over the remembered one.
  const asked = await get(app, "/movies/550?region=FR", { headers: { cookie: "watch-region=GB" } });
  assert.match(textOf(asked.html), /Where to watch in France/);
});
