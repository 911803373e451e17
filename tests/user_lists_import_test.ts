import assert from "node:assert/strict";
import { parseLetterboxdList } from "../lib/user_lists/import.ts";
import { csvText, letterboxdCsvs, letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";

const uri = (s: string) => `https://boxd.it/${s}`;

/** Position, Name, Year, URL, Description. */
type Item = [number | string, string, number | string, string, string];

/** A list in Letterboxd's list export layout (version line, list block, blank, items). */
function listCsv(
  name: string,
  items: Item[],
  options: { versionLine?: boolean } = {},
): string {
  return (options.versionLine === false ? "" : "Letterboxd list export v7\n") +
    csvText(["Date", "Name", "Tags", "URL", "Description"], [[
      "2024-12-31",
      name,
      "",
      uri("list"),
      `The ${name}, in order`,
    ]]) + "\n" +
    csvText(["Position", "Name", "Year", "URL", "Description"], items.map((i) => [...i]));
}

Deno.test("a Letterboxd list is read with or without its version line; ranked when positions are given", () => {
  const items: Item[] = [
    [1, "Heat", 1995, uri("h"), "the diner scene"],
    [2, 'Crouching Tiger, Hidden "Dragon"', 2000, uri("c"), ""],
  ];
  for (const versionLine of [true, false]) {
    const parsed = parseLetterboxdList(listCsv("Best", items, { versionLine }), {
      index: 3,
      fileName: "best.csv",
    });
    assert.deepEqual(parsed?.list, {
      name: "Best",
      description: "The Best, in order",
      ranked: true,
    });
    assert.deepEqual(parsed?.rows, [
      {
        kind: "list",
        title: "Heat",
        year: 1995,
        list: { index: 3, position: 1, note: "the diner scene" },
      },
      {
        kind: "list",
        title: 'Crouching Tiger, Hidden "Dragon"',
        year: 2000,
        list: { index: 3, position: 2 },
      },
    ]);
  }
  const unranked = parseLetterboxdList(listCsv("Any", [["", "Heat", 1995, uri("h"), ""]]), {
    index: 0,
    fileName: "any.csv",
  });
  assert.equal(unranked?.list.ranked, false);
  assert.equal(parseLetterboxdList("Date,Name\n", { index: 0, fileName: "x.csv" }), null);
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a Letterboxd ZIP's lists become private lists in file order, counted in the report, once however often imported, and come back out in the export`, async () => {
    await using w = await historyWorld({ engine });
    const zip = letterboxdZip({
      ...letterboxdCsvs(),
      "lists/best-of-all-time.csv": listCsv("Best of all time", [
        [1, "Spirited Away", 2001, uri("s"), "Still the best"],
        [2, "Heat", 1995, uri("h"), ""],
        [3, "Fight Club", 1999, uri("f"), ""],
        [4, "No Such Film", 1990, uri("n"), ""],
      ]),
    });
    const run = await w.importFile(zip);
    assert.equal(run.status, "succeeded");
    // The four list rows join the file's twelve: three matched and added, one unmatched.
    assert.deepEqual(run.counts, {
      rows: 16,
      matched: 14,
      added: 7,
      updated: 0,
      skipped: 1,
      unmatched: 2,
    });
    assert.ok(run.unmatched.some((u) => u.title === "No Such Film"));
    const lists = await (await w.t.request("/api/lists", { headers: w.user.headers })).json();
    assert.equal(lists.lists.length, 1);
    assert.deepEqual(
      { ...lists.lists[0], id: "", updatedAt: "" },
      {
        id: "",
        name: "Best of all time",
        description: "The Best of all time, in order",
        visibility: "private",
        ranked: true,
        count: 3,
        updatedAt: "",
        shareUrl: null,
      },
    );
    const exported = await (await w.t.request("/api/export", { headers: w.user.headers })).json();
    assert.deepEqual(exported.lists, [{
      name: "Best of all time",
      description: "The Best of all time, in order",
      visibility: "private",
      ranked: true,
      items: [
        { catalogId: 129, title: "Spirited Away", year: 2001, position: 1, note: "Still the best" },
        { catalogId: 949, title: "Heat", year: 1995, position: 2, note: null },
        { catalogId: 550, title: "Fight Club", year: 1999, position: 3, note: null },
      ],
    }]);
    // Spirited Away sits on the watchlist too: the list does not move it out of My List.
    assert.deepEqual((await w.lists()).myList, [129]);
    const again = await w.importFile(zip);
    assert.equal(again.counts.added, 0);
    const twice = await (await w.t.request("/api/export", { headers: w.user.headers })).json();
    assert.deepEqual(twice.lists, exported.lists);
  });
}
