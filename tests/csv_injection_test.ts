/**
 * CSV injection (docs/history.md): every CSV the service writes prefixes a cell that a
 * spreadsheet would run as a formula with `'`, and the importer reads such cells back unchanged.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { neutraliseCell, restoreCell } from "../lib/core/csv/cells.ts";
import { eachCsvRecord, readContext } from "../lib/library/history/import/csv.ts";
import { Slicer } from "../lib/library/history/import/slices.ts";
import { letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { createUser } from "./helpers/users.ts";

const FORMULAS = ['=HYPERLINK("https://evil.example","x")', "+1+1", "-2+3", "@SUM(1,1)"];

Deno.test("a cell starting with =, +, -, @, tab or CR is written with a leading ' and read back as it was", () => {
  for (const text of [...FORMULAS, "\tcmd", "\rcmd", "'=quoted already", "''+twice"]) {
    const written = neutraliseCell(text);
    assert.equal(written, `'${text}`, JSON.stringify(text));
    assert.equal(restoreCell(String(written)), text, JSON.stringify(text));
  }
  for (const text of ["Amélie", "'tis the season", "a=b", "", "'", "2001"]) {
    assert.equal(neutraliseCell(text), text, JSON.stringify(text));
    assert.equal(restoreCell(text), text, JSON.stringify(text));
  }
  assert.equal(neutraliseCell(550), 550);
});

Deno.test("the importer's CSV reader takes the injection quote off every cell", async () => {
  const records: Record<string, string>[] = [];
  const bytes = new TextEncoder().encode("Title,Review\r\n'=1+1,'@SUM(1;1)\r\n'tis,'-\r\n");
  await eachCsvRecord(bytes, readContext(new Slicer()), (record) => records.push(record));
  assert.deepEqual(records, [
    { Title: "=1+1", Review: "@SUM(1;1)" },
    { Title: "'tis", Review: "-" },
  ]);
});

Deno.test("GET /api/export?format=csv neutralises formula notes, and importing that CSV restores them exactly", async () => {
  await using w = await historyWorld();
  await w.importFile(letterboxdZip());
  const notes = new Map([[146, FORMULAS[0]], [194, "+1+1 -2+3"], [550, "@SUM(1,1)"]]);
  for (const [id, note] of notes) {
    const res = await w.t.request(`/api/watched/${id}`, {
      method: "PATCH",
      headers: { ...w.user.headers, "content-type": "application/json" },
      body: JSON.stringify({ note }),
    });
    assert.equal(res.status, 200, await res.text());
  }
  const csv = await (await w.t.request("/api/export?format=csv&list=watched", {
    headers: w.user.headers,
  })).text();
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  for (const record of records) {
    const note = notes.get(Number(record.tmdbID));
    assert.equal(record.Review, `'${note}`, record.tmdbID);
    for (const cell of Object.values(record)) assert.doesNotMatch(cell, /^[=+\-@\t\r]/);
  }
  const newcomer = await createUser(w.t.deps);
  const run = await w.importFile(csv, newcomer);
  assert.equal(run.status, "succeeded");
  assert.deepEqual((await w.lists(newcomer)).watched, (await w.lists()).watched);
  const mine = (await w.lists(newcomer)).watched.map((e) => [e.catalog_id, e.note]);
  assert.deepEqual(mine, [...notes].sort(([a], [b]) => a - b));
});
