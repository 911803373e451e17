import assert from "node:assert/strict";
import { parseLetterboxdList } from "../lib/library/lists/import.ts";
import { csvText, letterboxdCsvs, letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { addAll, json, makeList, order } from "./helpers/lists.ts";

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

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a list exported as CSV imports back (alone or in a Letterboxd ZIP) as a private list with the same items, order and notes`, async () => {
    await using w = await historyWorld({ engine });
    const u = w.user;
    await w.t.store.query(
      `insert into public.movies (catalog_id, title, year) values
         (949, 'Heat', 1995), (12345, 'Heat', 1986), (129, 'Spirited Away', 2001),
         (550, 'Fight Club', 1999)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year`,
    );
    const id = await makeList(w.t, u, {
      name: "Two Heats",
      description: "=not a formula, just words",
      visibility: "public",
      ranked: true,
    });
    // 777 has no movie row (a fallback card, empty title): its tmdbID alone brings it back.
    await addAll(w.t, u, id, [949, 12345, 129, 550, 777]);
    const moved = await w.t.request(
      `/api/lists/${id}/items/550`,
      json(u, "PATCH", { position: 1, note: "-first, always" }),
    );
    assert.equal(moved.status, 200);
    await moved.body?.cancel();
    const expected = [550, 949, 12345, 129, 777];
    assert.deepEqual(await order(w.t, u, id), expected);
    const res = await w.t.request(`/api/export?format=csv&list=list&id=${id}`, {
      headers: u.headers,
    });
    const csv = await res.text();
    assert.match(csv, /^Letterboxd list export v7\r\nDate,Name,Tags,URL,Description\r\n/);
    assert.match(csv, /\r\n\r\nPosition,tmdbID,Title,Year,Description\r\n1,550,Fight Club,1999,/);

    for (const file of [csv, letterboxdZip({ "lists/two-heats.csv": csv })]) {
      const gone = await w.t.request(`/api/lists/${id}`, json(u, "DELETE"));
      if (gone.status !== 204) assert.equal(gone.status, 404);
      await gone.body?.cancel();
      const run = await w.importFile(file);
      assert.equal(run.status, "succeeded");
      assert.equal(run.counts.added, 5);
      const { lists } = await (await w.t.request("/api/lists", { headers: u.headers })).json();
      assert.equal(lists.length, 1);
      assert.deepEqual(
        { ...lists[0], id: "", updatedAt: "" },
        {
          id: "",
          name: "Two Heats",
          description: "=not a formula, just words",
          visibility: "private",
          ranked: true,
          count: 5,
          updatedAt: "",
          shareUrl: null,
        },
      );
      assert.deepEqual(await order(w.t, u, lists[0].id), expected);
      const page = await (await w.t.request(`/api/lists/${lists[0].id}`, { headers: u.headers }))
        .json();
      assert.deepEqual(
        page.movies.map((m: { note: string | null }) => m.note),
        ["-first, always", null, null, null, null],
      );
      await w.t.request(`/api/lists/${lists[0].id}`, json(u, "DELETE")).then((r) =>
        r.body?.cancel()
      );
    }
  });
}
