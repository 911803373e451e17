/**
 * The import's catalog search (docs/history.md, "Runs"): a busy shared window is waited out for
 * up to ten minutes, since many imports share its background half; a failure of TMDB itself
 * is tried three times in all; anything else ends the search at once.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import type { MovieSource, SearchRow } from "../lib/catalog/types.ts";
import { upstreamBusy, windowFull } from "../lib/catalog/window_problems.ts";
import { retryingSearch } from "../lib/catalog/retrying_search.ts";
import { IMPORT_PATIENCE_MS, RUN_LEASE_MS } from "../lib/library/history/import/service.ts";
import { Problem } from "../lib/core/problem.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";

const ROW = { id: 550, title: "Fight Club" } as SearchRow;

/** A catalog whose search throws `fail(call)` while it returns a Problem, then finds ROW. */
function source(clock: FakeClock, fail: (call: number) => Problem | undefined) {
  const calls: number[] = [];
  const catalog = {
    search: () => {
      calls.push(clock.now());
      const problem = fail(calls.length);
      if (problem) return Promise.reject(problem);
      return Promise.resolve({ value: { results: [ROW] } });
    },
  } as unknown as MovieSource;
  return { catalog, calls };
}

const busy = (retryAfter = "1") => upstreamBusy({ "Retry-After": retryAfter });
const down = () => new Problem(502, "upstream_error", "The movie database could not be reached.");

Deno.test("an import's search waits out a busy window past its three tries, as Retry-After says", async () => {
  const clock = new FakeClock();
  const start = clock.now();
  const { catalog, calls } = source(clock, (n) => n <= 5 ? busy("2") : undefined);
  const search = retryingSearch(catalog, clock, { patienceMs: IMPORT_PATIENCE_MS });
  assert.deepEqual(await search("Fight Club", 1999), [ROW]);
  assert.deepEqual(calls.map((at) => at - start), [0, 2000, 4000, 6000, 8000, 10000]);
});

Deno.test("the window's 429 is waited out too, and a Retry-After past 30 s pauses 30 s", async () => {
  const clock = new FakeClock();
  const start = clock.now();
  const { catalog, calls } = source(
    clock,
    (n) => n === 1 ? windowFull({ "Retry-After": "3600" }) : undefined,
  );
  const search = retryingSearch(catalog, clock, { patienceMs: IMPORT_PATIENCE_MS });
  assert.deepEqual(await search("Fight Club", 1999), [ROW]);
  assert.deepEqual(calls.map((at) => at - start), [0, 30_000]);
});

Deno.test("past its patience a busy search has three tries left, 1 s and 2 s apart, then fails", async () => {
  const clock = new FakeClock();
  const start = clock.now();
  const { catalog, calls } = source(clock, () => busy());
  const search = retryingSearch(catalog, clock, { patienceMs: 5000 });
  await assert.rejects(search("Fight Club", 1999), (e) => (e as Problem).code === "upstream_busy");
  // Busy at 0-4 s is waited out; at exactly 5 s the patience is spent and the tries count.
  assert.deepEqual(calls.map((at) => at - start), [0, 1000, 2000, 3000, 4000, 5000, 6000, 8000]);
});

Deno.test("without patience a busy window counts as a failed try, three in all", async () => {
  const clock = new FakeClock();
  const { catalog, calls } = source(clock, () => busy());
  await assert.rejects(retryingSearch(catalog, clock)("Heat", 1995), Problem);
  assert.equal(calls.length, 3);
});

Deno.test("a failure of TMDB itself is tried three times in all, whatever the patience", async () => {
  const clock = new FakeClock();
  const { catalog, calls } = source(clock, () => down());
  const search = retryingSearch(catalog, clock, { patienceMs: IMPORT_PATIENCE_MS });
  await assert.rejects(search("Heat", 1995), (e) => (e as Problem).code === "upstream_error");
  assert.equal(calls.length, 3);
  const once = source(clock, (n) => n === 1 ? down() : undefined);
  assert.deepEqual(await retryingSearch(once.catalog, clock)("Heat", 1995), [ROW]);
});

Deno.test("a refusal that is no failure of TMDB (a 4xx) ends the search at once", async () => {
  const clock = new FakeClock();
  const { catalog, calls } = source(
    clock,
    () => new Problem(401, "upstream_unauthorized", "The key was refused."),
  );
  const search = retryingSearch(catalog, clock, { patienceMs: IMPORT_PATIENCE_MS });
  await assert.rejects(search("Heat", 1995), (e) => (e as Problem).status === 401);
  assert.equal(calls.length, 1);
});

const tooMany = (retryAfter: string) =>
  Response.json({ status_code: 25, status_message: "Too many requests." }, {
    status: 429,
    headers: { "retry-after": retryAfter },
  });

const TWO_FILMS = bytesOf(csvText(["Date", "Name", "Year", "Letterboxd URI"], [
  ["2024-01-01", "Fight Club", 1999, "a"],
  ["2024-01-02", "Heat", 1995, "b"],
]));

Deno.test("an import succeeds while TMDB answers its first 20 searches 429, more than three tries' worth", async () => {
  await using w = await historyWorld();
  let refused = 0;
  w.fake.override = (req) => {
    if (!req.path.startsWith("/search/") || refused >= 20) return undefined;
    refused++;
    return tooMany("1");
  };
  const run = await w.importFile(TWO_FILMS);
  assert.equal(run.status, "succeeded", JSON.stringify({ ...run, log: w.t.logs.slice(-5) }));
  assert.equal(refused, 20);
  assert.deepEqual(run.films, { total: 2, matched: 2, unmatched: 0 });
  const { watched } = await w.lists();
  assert.deepEqual(watched.map((r) => r.catalog_id).sort(), [550, 949]);
});

Deno.test("a run waiting out a busy window keeps its lease: a poll past the lease's life does not run it twice", async () => {
  await using w = await historyWorld();
  const clock = w.t.clock;
  const started = clock.now();
  w.fake.override = (req) =>
    req.path.startsWith("/search/") && clock.now() - started < RUN_LEASE_MS + 10_000
      ? tooMany("5")
      : undefined;
  const res = await w.upload(TWO_FILMS);
  assert.equal(res.status, 202);
  const { importId } = await res.json();
  while (clock.now() - started <= RUN_LEASE_MS + 1000) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const poll = await w.t.request(`/api/import/${importId}`, { headers: w.user.headers });
  assert.equal((await poll.json()).status, "running");
  await w.t.services.historyImport.idle();
  const run = await (await w.t.request(`/api/import/${importId}`, { headers: w.user.headers }))
    .json();
  assert.equal(run.status, "succeeded");
  assert.deepEqual(run.films, { total: 2, matched: 2, unmatched: 0 });
  const resumed = w.t.logs.filter((l) => l.msg === "history import resumed");
  assert.deepEqual(resumed, [], "the poll found the lease held and left the run alone");
});
