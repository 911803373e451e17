import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { historyExportSchema } from "../lib/openapi/paths/history_schemas.ts";
import { jsonBytes, letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { createUser } from "./helpers/users.ts";

const REVIEW = 'Not for me, "whimsy" overload.\nSecond line.';

Deno.test("GET /api/export answers the watched list with ratings, dates and notes and My List as JSON", async () => {
  await using w = await historyWorld();
  await w.importFile(letterboxdZip());
  const res = await w.t.request("/api/export", { headers: w.user.headers });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = historyExportSchema.parse(await res.json());
  assert.equal(body.exportedAt, new Date(w.t.clock.now()).toISOString());
  const byId = new Map(body.watched.map((e) => [e.catalogId, e]));
  assert.deepEqual([...byId.keys()].sort(), [146, 194, 550]);
  assert.deepEqual(
    { ...byId.get(194)!, addedAt: undefined },
    {
      catalogId: 194,
      title: "Amélie",
      year: 2001,
      rating: 1,
      // The review's Watched Date: watched.csv's later Date is only the day it was logged.
      watchedOn: "2024-02-28",
      note: REVIEW,
      addedAt: undefined,
    },
  );
  assert.equal(byId.get(550)!.rating, 10);
  assert.deepEqual(body.myList, [{ catalogId: 129, title: "Spirited Away", year: 2001 }]);
});

Deno.test("GET /api/export?format=csv is Letterboxd's import CSV: its column names, RFC 4180 quoting, UTF-8", async () => {
  await using w = await historyWorld();
  await w.importFile(letterboxdZip());
  const res = await w.t.request("/api/export?format=csv&list=watched", {
    headers: w.user.headers,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="watched.csv"/);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(await res.arrayBuffer());
  assert.ok(text.startsWith("tmdbID,Title,Year,Rating10,WatchedDate,Review\r\n"), text);
  // A title with a comma and a note with quotes and a line break are quoted, quotes doubled.
  assert.ok(text.includes('146,"Crouching Tiger, Hidden Dragon",2000,6,2024-02-09,\r\n'), text);
  assert.ok(
    text.includes(`194,Amélie,2001,1,2024-02-28,"Not for me, ""whimsy"" overload.\nSecond`),
  );
  const records = parse(text, { columns: true }) as Record<string, string>[];
  assert.deepEqual(records.map((r) => r.tmdbID).sort(), ["146", "194", "550"]);

  const list = await w.t.request("/api/export?format=csv&list=mylist", { headers: w.user.headers });
  assert.equal(list.status, 200);
  assert.equal(
    await list.text(),
    "tmdbID,Title,Year,Rating10,WatchedDate,Review\r\n129,Spirited Away,2001,,,\r\n",
  );
});

Deno.test("GET /api/export of a user with nothing is empty lists, and a CSV of just the header", async () => {
  await using w = await historyWorld();
  const body = await (await w.t.request("/api/export", { headers: w.user.headers })).json();
  assert.deepEqual({ ...body, exportedAt: undefined }, {
    exportedAt: undefined,
    watched: [],
    myList: [],
    diary: [],
    lists: [],
  });
  const csv = await w.t.request("/api/export?format=csv&list=watched", {
    headers: w.user.headers,
  });
  assert.equal(await csv.text(), "tmdbID,Title,Year,Rating10,WatchedDate,Review\r\n");
});

Deno.test("GET /api/export: a bad format, csv without list, list without csv or an unknown key is 400 invalid_query; no token is 401", async () => {
  await using w = await historyWorld();
  for (
    const query of [
      "format=xml",
      "format=csv",
      "list=watched",
      "format=csv&list=seen",
      "format=json&list=mylist",
      "format=csv&list=watched&extra=1",
    ]
  ) {
    const res = await w.t.request(`/api/export?${query}`, { headers: w.user.headers });
    assert.equal(res.status, 400, query);
    assert.equal((await res.json()).code, "invalid_query", query);
  }
  assert.equal(
    (await w.t.request("/api/export?format=json", { headers: w.user.headers })).status,
    200,
  );
  const anonymous = await w.t.request("/api/export");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});

Deno.test("export round trip: the CSVs exported by one user, imported by a new user, give the same lists, ratings and dates", async () => {
  await using w = await historyWorld();
  await w.importFile(letterboxdZip());
  const original = await w.lists();
  const newcomer = await createUser(w.t.deps);
  for (const list of ["watched", "mylist"]) {
    const csv = await (await w.t.request(`/api/export?format=csv&list=${list}`, {
      headers: w.user.headers,
    })).text();
    const run = await w.importFile(csv, newcomer);
    assert.equal(run.status, "succeeded", list);
    assert.equal(run.format, "letterboxd", list);
    assert.equal(run.counts.unmatched, 0, list);
  }
  const searches = w.searches();
  assert.deepEqual(await w.lists(newcomer), original);
  assert.equal(w.searches(), searches, "matched by tmdbID, no search");
});

Deno.test("export round trip: the JSON export imported by a new user gives the same lists", async () => {
  await using w = await historyWorld();
  await w.importFile(letterboxdZip());
  const json = await (await w.t.request("/api/export", { headers: w.user.headers })).json();
  const newcomer = await createUser(w.t.deps);
  const run = await w.importFile(jsonBytes(json), newcomer);
  assert.equal(run.status, "succeeded");
  assert.equal(run.format, "service");
  assert.deepEqual(await w.lists(newcomer), await w.lists());
});
