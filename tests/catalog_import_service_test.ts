/**
 * A catalog import run: every page read, stale details fetched with bounded concurrency, failures
 * recorded.
 */
import assert from "node:assert/strict";
import { createCatalogImportService } from "../lib/catalog/import/mod.ts";
import { testApp } from "./helpers/app.ts";
import { range, stubCatalog } from "./helpers/stub_catalog.ts";

Deno.test("a run reads every page, fetches details of the stale movies only, with at most `concurrency` calls at once", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 20), range(21, 20), [...range(41, 19), 1]]);
  for (const id of [2, 3, 4]) stub.detailed.add(id);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog, concurrency: 4 });
  const started = await svc.start({ pages: 3 });
  assert.equal(started.status, "running");
  const outcome = await started.done;
  assert.equal(outcome.status, "succeeded");
  assert.deepEqual(stub.calls.popular.sort(), [1, 2, 3]);
  // 59 distinct movies, 3 already detailed: 56 fetched, each once.
  assert.deepEqual(
    stub.calls.prefetch.sort((a, b) => a - b),
    range(1, 59).filter((id) => id > 4 || id === 1),
  );
  assert.ok(stub.peak() <= 4, `peak ${stub.peak()}`);
  const [run] = await svc.runs();
  assert.deepEqual(
    { ...run, startedAt: undefined, finishedAt: undefined },
    {
      id: started.importId,
      trigger: "manual",
      status: "succeeded",
      pages: 3,
      moviesSeen: 60,
      moviesUpserted: 59,
      detailsFetched: 56,
      errors: 0,
      lastError: null,
      startedAt: undefined,
      finishedAt: undefined,
    },
  );
  assert.equal(run.startedAt, new Date(t.clock.now()).toISOString());
  assert.ok(run.finishedAt);
});

Deno.test("a movie whose details fail is counted and logged, and the run still succeeds", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 10)], { failing: new Set([7]) });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 1 })).done;
  assert.equal(outcome.status, "succeeded");
  assert.equal(outcome.detailsFetched, 9);
  assert.equal(outcome.errors, 1);
  assert.equal(outcome.lastError, "movie 7: upstream answered 500");
  assert.ok(t.logs.some((l) => l.msg === "catalog import step failed" && l.catalogId === 7));
});

Deno.test("a run whose every page fails is recorded failed with the page's error", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 10), range(11, 10)], { failPages: true });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 2 })).done;
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.errors, 2);
  assert.match(outcome.lastError ?? "", /^page [12]: upstream_error: TMDB said no$/);
  assert.equal((await svc.runs())[0].status, "failed");
});

Deno.test("a failure that is not a problem is listed as internal_error; its text, which may quote SQL, only reaches the log", async () => {
  await using t = await testApp();
  const sqlError = new Error('duplicate key value violates unique constraint "movies_pkey"');
  const stub = stubCatalog([range(1, 10)], { failPages: sqlError });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 1 })).done;
  assert.equal(outcome.lastError, "page 1: internal_error");
  const [listed] = await svc.runs();
  assert.equal(listed.lastError, "page 1: internal_error");
  assert.ok(
    t.logs.some((l) =>
      l.msg === "catalog import step failed" && String(l.error).includes("movies_pkey")
    ),
  );
});
