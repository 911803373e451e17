import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import { historyWorld } from "./helpers/history_import_world.ts";
import {
  bytesOf,
  csvText,
  letterboxdCsvs,
  letterboxdZip,
  traktFiles,
} from "./helpers/history_files.ts";
import { imdbRatingsCsv } from "./helpers/history_files_imdb.ts";
import { ENGINES } from "./helpers/store.ts";
import type { TestUser } from "./helpers/users.ts";

type World = Awaited<ReturnType<typeof historyWorld>>;

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

// Every viewing of the user, oldest first, as [movie, date, rating, rewatch, note, source].
async function viewings(w: World, user: TestUser = w.user) {
  const rows = await w.t.store.query<Record<string, unknown>>(
    `select catalog_id, watched_on::text as on, rating, rewatch, note, source
     from public.user_viewings where user_id = $1 order by catalog_id, watched_on`,
    [user.id],
  );
  return rows.map((r) => [r.catalog_id, r.on, r.rating, r.rewatch, r.note, r.source]);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a film watched three times in a Letterboxd diary gives three viewings, two of them rewatches, and re-importing adds none`, async () => {
    await using w = await historyWorld({ engine });
    const file = bytesOf(csvText(DIARY, [
      ["2021-05-01", "Heat", 1995, "u1", "4", "", "", "2021-04-30"],
      ["2023-01-02", "Heat", 1995, "u2", "5", "Yes", "", "2023-01-01"],
      ["2022-02-02", "Heat", 1995, "u3", "", "Yes", "", "2022-02-01"],
    ]));
    const run = await w.importFile(file);
    assert.equal(run.status, "succeeded");
    const expected = [
      [949, "2021-04-30", 8, false, null, "import"],
      [949, "2022-02-01", null, true, null, "import"],
      [949, "2023-01-01", 10, true, null, "import"],
    ];
    assert.deepEqual(await viewings(w), expected);
    // The watched row is the summary: the latest viewing's date and rating.
    assert.deepEqual((await w.lists()).watched, [
      { catalog_id: 949, rating: 10, watched_on: "2023-01-01", note: null },
    ]);
    const again = await w.importFile(file);
    assert.equal(again.status, "succeeded");
    assert.deepEqual(await viewings(w), expected);
    const diary = await (await w.t.request("/api/diary", { headers: w.user.headers })).json();
    assert.deepEqual(
      diary.entries.map((e: { title: string; rewatch: boolean }) => [e.title, e.rewatch]),
      [["Heat", true], ["Heat", true], ["Heat", false]],
    );
  });

  Deno.test(`[${engine}] a Letterboxd export keeps every diary entry with its Rewatch mark and the review as its note; watched.csv and ratings add none`, async () => {
    await using w = await historyWorld({ engine });
    assert.equal((await w.importFile(letterboxdZip())).status, "succeeded");
    assert.deepEqual(await viewings(w), [
      [146, "2024-02-09", 6, false, null, "import"],
      [194, "2024-02-28", 1, false, 'Not for me, "whimsy" overload.\nSecond line.', "import"],
      [550, "2024-01-04", 9, false, null, "import"],
      [550, "2024-06-19", 10, true, null, "import"],
    ]);
    // The same entries imported again, from the CSVs alone: nothing new.
    const csvs = letterboxdCsvs();
    const zipped = zipSync(
      Object.fromEntries(Object.entries(csvs).map(([n, text]) => [n, strToU8(text)])),
    );
    assert.equal((await w.importFile(zipped)).status, "succeeded");
    assert.equal((await viewings(w)).length, 4);
  });

  Deno.test(`[${engine}] Trakt's history gives one viewing per play, a watched movie without plays one at its last watch, and IMDb ratings none`, async () => {
    await using w = await historyWorld({ engine });
    const files = traktFiles();
    const zipped = zipSync(
      Object.fromEntries(Object.entries(files).map(([n, j]) => [n, strToU8(JSON.stringify(j))])),
    );
    assert.equal((await w.importFile(zipped)).status, "succeeded");
    assert.deepEqual(await viewings(w), [
      [194, "2024-02-09", null, false, null, "import"],
      [550, "2024-01-04", null, false, null, "import"],
    ]);
    // The summary keeps the latest watch the file knows (Fight Club's last play).
    const fight = (await w.lists()).watched.find((e) => e.catalog_id === 550);
    assert.equal(fight?.watched_on, "2024-06-19");
    const other = await w.t.request("/api/diary", { headers: w.user.headers });
    assert.equal((await other.json()).entries.length, 2);

    const imdbUser = await import("./helpers/users.ts").then((m) => m.createUser(w.t.deps));
    assert.equal((await w.importFile(imdbRatingsCsv(), imdbUser)).status, "succeeded");
    assert.deepEqual(await viewings(w, imdbUser), []);
  });

  Deno.test(`[${engine}] the export carries the diary (JSON, and a CSV of one row per viewing) and imports back with every viewing`, async () => {
    await using w = await historyWorld({ engine });
    await w.importFile(letterboxdZip());
    const json = await (await w.t.request("/api/export", { headers: w.user.headers })).json();
    assert.deepEqual(
      json.diary.map((v: { catalogId: number; watchedOn: string }) => [
        v.catalogId,
        v.watchedOn,
      ]),
      [[550, "2024-06-19"], [194, "2024-02-28"], [146, "2024-02-09"], [550, "2024-01-04"]],
    );
    assert.deepEqual(json.diary[0], {
      catalogId: 550,
      title: "Fight Club",
      year: 1999,
      watchedOn: "2024-06-19",
      rating: 10,
      rewatch: true,
      note: null,
    });
    const res = await w.t.request("/api/export?format=csv&list=diary", {
      headers: w.user.headers,
    });
    assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
    const csv = await res.text();
    const lines = csv.split("\r\n");
    assert.equal(lines[0], "tmdbID,Title,Year,WatchedDate,Rating10,Rewatch,Review");
    assert.equal(lines[1], "550,Fight Club,1999,2024-06-19,10,Yes,");
    assert.equal(lines.filter((l) => l !== "").length, 5);

    const { createUser } = await import("./helpers/users.ts");
    const fromCsv = await createUser(w.t.deps);
    assert.equal((await w.importFile(csv, fromCsv)).status, "succeeded");
    const fromJson = await createUser(w.t.deps);
    assert.equal((await w.importFile(JSON.stringify(json), fromJson)).status, "succeeded");
    const original = await viewings(w);
    for (const who of [fromCsv, fromJson]) {
      assert.deepEqual(
        (await viewings(w, who)).map((v) => v.slice(0, 5)),
        original.map((v) => v.slice(0, 5)),
      );
    }
  });
}
