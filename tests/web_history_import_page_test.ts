import assert from "node:assert/strict";
import { letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

Deno.test("/import signed out asks to sign in and still says where each service's export is found", async () => {
  await using w = await historyWorld();
  const { status, html } = await get(w.t, "/import");
  assert.equal(status, 200);
  const text = textOf(html);
  assert.match(text, /Sign in to import or export your history/);
  for (const name of ["Letterboxd", "Trakt", "IMDb"]) assert.ok(text.includes(name), name);
  assert.ok(html.includes('href="https://letterboxd.com/settings/data/"'));
  assert.ok(html.includes('href="https://trakt.tv/settings/data"'));
  assert.ok(html.includes('href="https://www.imdb.com/exports/"'));
  assert.deepEqual(islandsOf(html).map((i) => i.name), []);
});

Deno.test("/import signed in renders the upload, the latest run with its report, and the export links", async () => {
  await using w = await historyWorld();
  const cookie = { headers: { cookie: sessionCookie(w.user.token, w.user.email) } };
  const empty = await get(w.t, "/import", cookie);
  assert.deepEqual(islandsOf(empty.html), [
    { name: "SignOutButton", props: {} },
    { name: "HistoryImport", props: { latest: null } },
    { name: "ExportLinks", props: {} },
  ]);
  assert.match(empty.html, /<label for="import-file">Export file<\/label>/);
  assert.equal(empty.headers.get("cache-control"), "private, no-store");

  const run = await w.importFile(letterboxdZip());
  const { html } = await get(w.t, "/import", cookie);
  const island = islandsOf(html).find((i) => i.name === "HistoryImport")!;
  assert.deepEqual(island.props, { latest: run });
  const text = textOf(html);
  assert.match(text, /Import finished/);
  assert.match(text, /Progress: 100%/);
  assert.match(text, /Not matched \(1\)/);
  assert.match(text, /Unknown Film \(no year\): no movie of this title and year was found/);
  assert.match(html, /<progress id="import-progress" max="1" value="1"/);
  for (const href of ["/api/export", "/api/export?format=csv&amp;list=watched"]) {
    assert.ok(html.includes(`href="${href}"`), href);
  }
  // Every page links to it (the footer).
  const watched = await get(w.t, "/watched", cookie);
  assert.ok(watched.html.includes('<a href="/import">'));
});
