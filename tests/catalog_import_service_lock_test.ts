/**
 * One import at a time: progress and 409 while running, a lost lease stops a run, interrupted runs
 * marked failed.
 */
import assert from "node:assert/strict";
import {
  createCatalogImportService,
  failInterruptedImports,
  INTERRUPTED,
  takeImportLock,
} from "../lib/catalog/import/mod.ts";
import { Problem } from "../lib/core/problem.ts";
import { testApp } from "./helpers/app.ts";
import { settledApp } from "./helpers/settled.ts";
import { range, stubCatalog } from "./helpers/stub_catalog.ts";

Deno.test("progress is written to the run's row while it goes on, and a second start answers 409 import_running", async () => {
  await using t = await settledApp();
  const stub = stubCatalog([range(1, 20), range(21, 20)]);
  // Let the pages and some details through, then hold the rest.
  const held = stub.holdDetailsAfter(25);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog, concurrency: 2 });
  const first = await svc.start({ pages: 2 });
  await assert.rejects(
    svc.start({ pages: 1 }),
    (e) => e instanceof Problem && e.status === 409 && e.code === "import_running",
  );
  await held.reached;
  await t.settled(); // the progress written so far is in the row
  const release = held.release;
  const [mid] = await svc.runs();
  assert.equal(mid.status, "running");
  assert.equal(mid.finishedAt, null);
  assert.equal(mid.moviesSeen, 40);
  assert.ok(mid.detailsFetched > 0 && mid.detailsFetched < 40, `mid ${mid.detailsFetched}`);
  release();
  assert.equal((await first.done).detailsFetched, 40);
  // The lock went with the run: a new one starts.
  const second = await svc.start({ pages: 1 });
  assert.equal((await second.done).detailsFetched, 0);
});

Deno.test("a run whose lease ran out and was taken by another instance stops and is recorded failed", async () => {
  await using t = await testApp();
  const clock = t.clock;
  const stub = stubCatalog([range(1, 20), range(21, 20)]);
  const svc = createCatalogImportService(t.deps, {
    catalog: stub.catalog,
    concurrency: 1,
    lockTtlMs: 600,
  });
  const run = await svc.start({ pages: 2 });
  // The holder stalls past its lease; another instance takes the lock meanwhile.
  const release = stub.hold();
  clock.advance(1000);
  const other = await takeImportLock(t.kv, crypto.randomUUID(), { clock, ttlMs: 60_000 });
  assert.ok(other);
  release();
  const outcome = await run.done;
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.lastError, "stopped: another instance took the import lock");
  assert.ok(stub.calls.prefetch.length < 40);
  await other.release();
});

Deno.test("at startup, running runs are marked failed when no one holds the lock, and left alone while it is held", async () => {
  await using t = await testApp();
  const id = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages, movies_seen, started_at)
     values ($1, 'cron', 'running', 5, 40, $2)`,
    [id, new Date(t.clock.now() - 60_000)],
  );
  // A run another instance started after the look at the lock is not touched.
  const younger = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages, started_at)
     values ($1, 'manual', 'running', 5, $2)`,
    [younger, new Date(t.clock.now() + 1_000)],
  );
  const lock = await takeImportLock(t.kv, crypto.randomUUID(), { clock: t.clock });
  assert.deepEqual(await failInterruptedImports(t.deps), []);
  await lock!.release();
  assert.deepEqual(await failInterruptedImports(t.deps), [id]);
  const [row] = await t.store.query<{ status: string; last_error: string; finished_at: Date }>(
    `select status, last_error, finished_at from public.catalog_imports where id = $1`,
    [id],
  );
  assert.equal(row.status, "failed");
  assert.equal(row.last_error, INTERRUPTED);
  assert.equal(row.last_error, "interrupted by a restart");
  assert.equal(new Date(row.finished_at).getTime(), t.clock.now());
  assert.deepEqual(await failInterruptedImports(t.deps), []);
  const [other] = await t.store.query<{ status: string }>(
    `select status from public.catalog_imports where id = $1`,
    [younger],
  );
  assert.equal(other.status, "running");
});

Deno.test("a new run marks a run left running by a dead holder failed before it starts", async () => {
  await using t = await testApp();
  const id = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages) values ($1, 'manual', 'running', 5)`,
    [id],
  );
  const stub = stubCatalog([range(1, 3)]);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const run = await svc.start({ pages: 1 });
  await run.done;
  const runs = await svc.runs();
  assert.deepEqual(
    runs.map((r) => [r.id, r.status]).sort(),
    [
      [id, "failed"],
      [run.importId, "succeeded"],
    ].sort(),
  );
});
