/**
 * The scheduled import: a cron tick starts a run or skips a busy one; the run list keeps the last
 * 20.
 */
import assert from "node:assert/strict";
import { createCatalogImportService, scheduledImport } from "../lib/catalog/import/mod.ts";
import { testApp } from "./helpers/app.ts";
import { importsSettled } from "./helpers/catalog_imports.ts";
import { range, stubCatalog } from "./helpers/stub_catalog.ts";

Deno.test("a cron tick starts a cron run, and a tick while a run is going logs and skips", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 5)]);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const release = stub.hold();
  const manual = await svc.start({ pages: 1 });
  assert.equal(await scheduledImport(svc, t.deps), null);
  assert.ok(t.logs.some((l) => l.msg === "catalog import cron skipped: a run is in progress"));
  release();
  await manual.done;
  t.clock.advance(60_000);
  const tick = await scheduledImport(svc, t.deps);
  assert.equal(tick?.status, "succeeded");
  const [latest] = await svc.runs();
  assert.equal(latest.trigger, "cron");
  assert.equal(latest.pages, 5);
  await importsSettled(t.deps);
});

Deno.test("the run list holds the last 20 runs, newest first", async () => {
  await using t = await testApp();
  await t.store.query(
    `insert into public.catalog_imports (trigger, status, pages, started_at, finished_at)
     select 'cron', 'succeeded', 5, now() - g * interval '1 day', now() - g * interval '1 day'
     from generate_series(1, 25) g`,
  );
  const svc = createCatalogImportService(t.deps, { catalog: stubCatalog([]).catalog });
  const runs = await svc.runs();
  assert.equal(runs.length, 20);
  const starts = runs.map((r) => Date.parse(r.startedAt));
  assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
});
