/**
 * The import page's report (issue 31 item 8): counts in films before rows, a search link for each
 * unmatched film, "Show more" and the CSV download when more than 100 did not match, Watched
 * opened by watch date, what Letterboxd data is not imported; a running run offers Cancel.
 */
import assert from "node:assert/strict";
import { MAX_VIEWINGS_PER_FILM } from "@/lib/library/diary/limits.ts";
import { MAX_WATCHED } from "@/lib/library/entries/limits.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { textOf } from "./helpers/dom.ts";
import { get, sessionCookie } from "./helpers/web.ts";

const HEADER = ["Date", "Name", "Year", "Letterboxd URI"];

Deno.test("/import reports films, not rows: a rewatched film counts once; each unmatched film links to the search", async () => {
  await using w = await historyWorld();
  const cookie = { headers: { cookie: sessionCookie(w.user.token, w.user.email) } };
  const rows: (string | number)[][] = [
    ["2024-01-01", "Fight Club", 1999, "a"],
    ["2024-02-01", "Fight Club", 1999, "b"],
    ["2024-03-01", "Fight Club", 1999, "c"],
  ];
  for (let i = 0; i < 101; i++) rows.push(["2024-01-03", `Lost Film ${i}`, 2001, `u${i}`]);
  const run = await w.importFile(bytesOf(csvText(HEADER, rows)));
  // The run's own account first, with the service's log, should it end otherwise.
  assert.equal(run.status, "succeeded", JSON.stringify({ ...run, log: w.t.logs.slice(-8) }));
  const { html } = await get(w.t, "/import", cookie);
  const text = textOf(html);
  assert.match(text, /Films in the file\s*102/);
  assert.match(text, /Matched\s*1\b/);
  assert.match(text, /Not matched\s*101/);
  assert.match(text, /Rows read\s*104/);
  assert.match(text, /Not matched \(101\)/);
  assert.ok(html.includes('href="/search?q=Lost%20Film%200"'), "a search link per film");
  assert.match(text, /Show more \(1 left\)/);
  assert.match(text, /download the list \(CSV\)/);
  assert.ok(html.includes('href="/watched?sort=watched_on"'), "Watched by watch date");
  assert.match(text, /Not imported: tags, likes, lists and comments/);
});

Deno.test("/import shows the viewings the diary's caps left out (counts.tooManyViewings) and the rows a full list skipped (counts.listFull), and neither line when there are none", async () => {
  await using w = await historyWorld();
  const cookie = { headers: { cookie: sessionCookie(w.user.token, w.user.email) } };
  // Fight Club (550) two viewings short of the 1,000 a film holds.
  await w.t.store.asUser(w.user.id, async (tx) => {
    await tx.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
       values ((select auth.uid()), 550, date '2000-01-01')`,
    );
    await tx.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
       select (select auth.uid()), 550, date '2000-01-01' + g, 'manual', now()
         from generate_series(0, $1::int - 1) g`,
      [MAX_VIEWINGS_PER_FILM - 2],
    );
  });
  // Each run a minute after the last, so the page's latest run is the one just made.
  const later = () => w.t.clock.advance(60_000);
  const diary = (days: string[]) =>
    bytesOf(csvText(
      ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"],
      days.map((on) => [on, "Fight Club", "1999", "https://boxd.it/fc", "4", "Yes", "", on]),
    ));
  // Two fit (the 999th and 1,000th): nothing left out, no line.
  later();
  const fits = await w.importFile(diary(["2026-01-01", "2026-01-02"]));
  assert.equal(fits.counts.tooManyViewings, undefined);
  let text = textOf((await get(w.t, "/import", cookie)).html);
  assert.match(text, /Import finished/);
  assert.doesNotMatch(text, /Viewings not logged/);
  // Three more: all past the cap.
  later();
  const past = await w.importFile(diary(["2026-01-03", "2026-01-04", "2026-01-05"]));
  assert.equal(past.counts.tooManyViewings, 3);
  text = textOf((await get(w.t, "/import", cookie)).html);
  assert.match(
    text,
    /Viewings not logged \(past the diary's 1,000 of a film or 200,000 in all\)\s*3/,
  );
  assert.doesNotMatch(text, /past a list's limit/);
  // The watched list full (the kept count its check reads): a new film's row is skipped for it.
  await w.t.store.query(
    `update public.user_watched_counts set movies = $2 where user_id = $1 and period = 0`,
    [w.user.id, MAX_WATCHED],
  );
  later();
  const full = await w.importFile(bytesOf(csvText(
    ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"],
    [["2026-01-06", "Heat", "1995", "https://boxd.it/h", "5", "", "", "2026-01-06"]],
  )));
  assert.equal(full.counts.listFull, 1);
  text = textOf((await get(w.t, "/import", cookie)).html);
  assert.match(text, /Of those skipped, past a list's limit\s*1/);
  assert.doesNotMatch(text, /Viewings not logged/);
});

Deno.test("/import shows a running import with a Cancel button", async () => {
  await using w = await historyWorld({ latencyMs: 200 });
  const cookie = { headers: { cookie: sessionCookie(w.user.token, w.user.email) } };
  const rows = Array.from(
    { length: 200 },
    (_, i) => ["2024-01-03", `Slow Film ${i}`, 2001, `u${i}`],
  );
  assert.equal((await w.upload(bytesOf(csvText(HEADER, rows)))).status, 202);
  const { html } = await get(w.t, "/import", cookie);
  const text = textOf(html);
  assert.match(text, /Importing…/);
  assert.match(text, /Cancel import/);
});
