import assert from "node:assert/strict";
import { bytesOf, csvText, letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { applyBatch } from "../lib/library/history/import/apply.ts";
import type { ImportUnit } from "../lib/library/history/import/units.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const DIARY = [
  "Date",
  "Name",
  "Year",
  "Letterboxd URI",
  "Rating",
  "Rewatch",
  "Tags",
  "Watched Date",
];
const WATCHLIST = ["Date", "Name", "Year", "Letterboxd URI"];

async function setEntry(
  w: Awaited<ReturnType<typeof historyWorld>>,
  id: number,
  entry: { rating: number | null; watchedOn: string | null; note: string | null },
) {
  await w.t.store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on, note)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      w.user.id,
      id,
      new Date(w.t.clock.now()).toISOString(),
      entry.rating,
      entry.watchedOn,
      entry.note,
    ],
  );
}

Deno.test("a rating, date and note the user set here and newer than the file's are kept; an older date gives way to the file's", async () => {
  await using w = await historyWorld();
  // Set here "today" (2026-11-22 on the test clock): newer than any date in the file.
  await setEntry(w, 550, { rating: 4, watchedOn: "2025-01-01", note: "mine" });
  await setEntry(w, 146, { rating: null, watchedOn: "2020-01-01", note: null });
  const run = await w.importFile(letterboxdZip());
  assert.equal(run.counts.added, 2); // Amélie and Spirited Away (My List)
  assert.equal(run.counts.updated, 1); // Crouching Tiger: the newer date and a first rating
  const watched = (await w.lists()).watched;
  assert.deepEqual(watched.find((e) => e.catalog_id === 550), {
    catalog_id: 550,
    rating: 4,
    watched_on: "2025-01-01",
    note: "mine",
  });
  assert.deepEqual(watched.find((e) => e.catalog_id === 146), {
    catalog_id: 146,
    rating: 6,
    // The latest diary date: watched.csv's later Date is only the day it was logged.
    watched_on: "2024-02-09",
    note: null,
  });
});

Deno.test("a file rating dated after the stored entry replaces its rating", async () => {
  await using w = await historyWorld();
  await setEntry(w, 550, { rating: 4, watchedOn: "2020-01-01", note: null });
  // The entry was added on 2026-11-22 (test clock): a diary rating from 2026-12-01 is newer.
  const run = await w.importFile(
    bytesOf(csvText(DIARY, [["2026-12-01", "Fight Club", 1999, "u", "4.5", "", "", "2026-11-30"]])),
  );
  assert.equal(run.counts.updated, 1);
  assert.deepEqual((await w.lists()).watched, [
    { catalog_id: 550, rating: 9, watched_on: "2026-11-30", note: null },
  ]);
});

Deno.test("duplicate diary entries of a rewatch make one watched entry with the latest date and that entry's rating", async () => {
  await using w = await historyWorld();
  const run = await w.importFile(bytesOf(csvText(DIARY, [
    ["2021-05-01", "Heat", 1995, "u1", "5", "", "", "2021-04-30"],
    ["2023-07-02", "Heat", 1995, "u2", "3.5", "Yes", "", "2023-07-01"],
    ["2022-01-01", "Heat", 1995, "u3", "4", "Yes", "", "2021-12-31"],
  ], { crlf: true })));
  assert.equal(run.counts.rows, 3);
  assert.equal(run.counts.matched, 3);
  assert.equal(run.counts.added, 1);
  assert.equal(w.searches(), 1);
  assert.deepEqual((await w.lists()).watched, [
    { catalog_id: 949, rating: 7, watched_on: "2023-07-01", note: null },
  ]);
});

Deno.test("watchlist rows of movies already watched stay off My List and count as skipped; the others join it in file order", async () => {
  await using w = await historyWorld();
  await setEntry(w, 129, { rating: null, watchedOn: null, note: null });
  const add = await w.t.request("/api/mylist", {
    method: "POST",
    headers: { ...w.user.headers, "content-type": "application/json" },
    body: '{"catalogId":949}',
  });
  assert.equal(add.status, 200);
  const run = await w.importFile(bytesOf(csvText(WATCHLIST, [
    ["2024-01-01", "Spirited Away", 2001, "u"],
    ["2024-01-02", "Amélie", 2001, "u"],
    ["2024-01-03", "Heat", 1995, "u"],
    ["2024-01-04", "Fight Club", 1999, "u"],
  ])));
  // Alone, four columns read as watched.csv; in the ZIP they are the watchlist.
  assert.equal(run.counts.added, 3);
  const zipRun = await w.importFile(letterboxdZip({
    "watchlist.csv": csvText(WATCHLIST, [
      ["2024-01-01", "Spirited Away", 2001, "u"],
      ["2024-01-02", "Crouching Tiger, Hidden Dragon", 2000, "u"],
      ["2024-01-03", "Heat", 1995, "u"],
    ]),
  }));
  assert.equal(zipRun.counts.skipped, 2);
  assert.equal(zipRun.counts.added, 1);
  const lists = await w.lists();
  assert.deepEqual(lists.myList, [146]);
});

Deno.test("a batch larger than one write statement writes every entry and viewing, a movie's rewatches worked out across the whole batch", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  // 48 films of one viewing, then one film seen 30 times: more than one statement's rows either
  // way, and the rewatched film's viewings more than a piece holds on their own.
  const batch: { unit: ImportUnit; id: number }[] = Array.from({ length: 48 }, (_, i) => ({
    unit: {
      title: `Film ${i}`,
      rows: 1,
      watched: true,
      listed: 0,
      viewings: [{ on: "2025-01-01" }],
    },
    id: 4_000_000 + i,
  }));
  const days = Array.from({ length: 30 }, (_, i) => `2024-01-${String(i + 1).padStart(2, "0")}`);
  batch.push({
    unit: {
      title: "Seen often",
      rows: 30,
      watched: true,
      listed: 0,
      viewings: days.map((on) => ({ on })),
    },
    id: 4_000_100,
  });
  const counts = await applyBatch(t.store, u.id, batch, { now: t.clock.now() });
  assert.deepEqual(counts, { added: 49, updated: 0, skipped: 0, listFull: 0, tooManyViewings: 0 });
  const [watched] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from public.user_watched_movies where user_id = $1",
    [u.id],
  );
  assert.equal(watched.n, 49);
  const often = await t.store.query<{ rewatch: boolean }>(
    `select rewatch from public.user_viewings where user_id = $1 and catalog_id = 4000100
      order by watched_on`,
    [u.id],
  );
  assert.deepEqual(often.map((r) => r.rewatch), [false, ...days.slice(1).map(() => true)]);
  const [viewings] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from public.user_viewings where user_id = $1",
    [u.id],
  );
  assert.equal(viewings.n, 78);
});
