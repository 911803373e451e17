/**
 * lib/platform/jobs: the job lease and its heartbeat, a run started, recorded and handed back, the
 * runs a restart cut off, a cron tick, and the restart hooks run now and after a lease's TTL.
 * A toy job over in-memory runs; KV in memory; time from a FakeClock.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import type { AppDeps } from "../lib/platform/deps.ts";
import { cronTick } from "../lib/platform/jobs/cron.ts";
import { failInterruptedRuns, INTERRUPTED } from "../lib/platform/jobs/interrupted.ts";
import type { Job, JobOutcome } from "../lib/platform/jobs/job.ts";
import { type JobLease, takeJobLease } from "../lib/platform/jobs/lease.ts";
import { recoverAfterRestart } from "../lib/platform/jobs/restart.ts";
import { startJobRun } from "../lib/platform/jobs/start.ts";
import { HeldLeases } from "../lib/platform/kv/lock.ts";
import type { LogEntry } from "../lib/core/log.ts";
import { Problem } from "../lib/core/problem.ts";
import type { Store } from "../lib/platform/store/mod.ts";

const KEY: Deno.KvKey = ["toy_job_lock"];

interface ToyRow {
  id: string;
  status: string;
  startedAt: number;
  pages: number;
  lastError?: string;
}

/** A toy job whose runs live in `rows` and whose executor waits for the test's word. */
function toyJob(rows: ToyRow[], execute: Job<{ pages: number }, JobOutcome>["execute"]) {
  const job: Job<{ pages: number }, JobOutcome> = {
    name: "toy",
    run: { noun: "toy run", idField: "toyId" },
    lease: { key: KEY, ttlMs: 600 },
    runs: {
      insert: (_sql, run) => {
        rows.push({ id: run.id, status: "running", startedAt: run.startedAt, pages: run.pages });
        return Promise.resolve();
      },
      failRunning: (_sql, o) => {
        const ids = rows.filter((r) =>
          r.status === "running" && r.id !== o.keep &&
          (o.startedBefore === undefined || r.startedAt < o.startedBefore)
        ).map((r) => {
          r.status = "failed";
          r.lastError = INTERRUPTED;
          return r.id;
        });
        return Promise.resolve(ids);
      },
    },
    busy: () => new Problem(409, "toy_running", "A toy run is already running."),
    execute,
  };
  return job;
}

async function toyDeps() {
  const kv = await Deno.openKv(":memory:");
  const logs: LogEntry[] = [];
  const deps = {
    kv,
    clock: new FakeClock(),
    log: (entry: LogEntry) => void logs.push(entry),
    leases: new HeldLeases(),
    store: {} as Store,
  } satisfies Pick<AppDeps, "kv" | "clock" | "log" | "leases" | "store">;
  return { deps, logs, [Symbol.dispose]: () => kv.close() };
}

Deno.test("a job lease beats every sixth of its TTL, is lost to another owner, and is then not released", async () => {
  using w = await toyDeps();
  const { kv, clock } = w.deps;
  const lease = (await takeJobLease(kv, KEY, { clock, ttlMs: 600, owner: "a" }))!;
  assert.equal(lease.owner, "a");
  assert.equal(lease.due(), false);
  clock.advance(99);
  assert.equal(lease.due(), false);
  clock.advance(1);
  assert.equal(lease.due(), true);
  // Claimed: the next one is due a hundred milliseconds later.
  assert.equal(lease.due(), false);
  clock.advance(100);
  assert.equal(await lease.heartbeat(), true);
  assert.equal(await takeJobLease(kv, KEY, { clock, ttlMs: 600 }), null);
  // Not renewed past its TTL: another owner takes it, and the old holder finds out.
  clock.advance(700);
  const other = (await takeJobLease(kv, KEY, { clock, ttlMs: 600, owner: "b" }))!;
  assert.ok(other);
  assert.equal(await lease.heartbeat(), false);
  assert.equal(lease.lost, true);
  assert.equal(await lease.renew(), false);
  await lease.release();
  assert.equal(await takeJobLease(kv, KEY, { clock, ttlMs: 600 }), null);
  await other.release();
  assert.ok(await takeJobLease(kv, KEY, { clock, ttlMs: 600 }));
});

Deno.test("startJobRun holds the lease for one run, marks stale runs failed, records, logs and hands the lease back", async () => {
  using w = await toyDeps();
  const rows: ToyRow[] = [{ id: "stale", status: "running", startedAt: 0, pages: 1 }];
  const finish = Promise.withResolvers<void>();
  let held: JobLease | undefined;
  const job = toyJob(rows, async (run, lease) => {
    held = lease;
    assert.equal(run.pages, 3);
    await finish.promise;
    return { status: "succeeded" };
  });
  const started = await startJobRun(w.deps, job, { trigger: "manual", params: { pages: 3 } });
  assert.equal(held?.owner, started.runId);
  assert.deepEqual(rows.map((r) => [r.id, r.status]), [
    ["stale", "failed"],
    [started.runId, "running"],
  ]);
  await assert.rejects(
    startJobRun(w.deps, job, { trigger: "cron", params: { pages: 1 } }),
    (e) => e instanceof Problem && e.status === 409 && e.code === "toy_running",
  );
  finish.resolve();
  assert.deepEqual(await started.done, { status: "succeeded" });
  // Handed back: a new run starts at once.
  const next = await startJobRun(w.deps, job, { trigger: "cron", params: { pages: 3 } });
  await next.done;
  const msgs = w.logs.map((l) => l.msg);
  assert.ok(msgs.includes("toy runs marked failed"));
  assert.ok(w.logs.some((l) => l.msg === "toy run started" && l.toyId === started.runId));
  assert.ok(w.logs.some((l) => l.msg === "toy run finished" && l.status === "succeeded"));
});

Deno.test("a run that lost its lease does not release the new holder's lease", async () => {
  using w = await toyDeps();
  const { kv, clock } = w.deps;
  const rows: ToyRow[] = [];
  const job = toyJob(rows, async (_run, lease) => {
    clock.advance(700);
    const other = await takeJobLease(kv, KEY, { clock, ttlMs: 60_000, owner: "other" });
    assert.ok(other);
    clock.advance(100);
    assert.equal(await lease.heartbeat(), false);
    return { status: "failed" };
  });
  const run = await startJobRun(w.deps, job, { trigger: "manual", params: { pages: 1 } });
  assert.equal((await run.done).status, "failed");
  assert.equal(await takeJobLease(kv, KEY, { clock, ttlMs: 600 }), null);
});

Deno.test("a run whose records cannot be written hands the lease back and throws", async () => {
  using w = await toyDeps();
  const job = toyJob([], () => Promise.resolve({ status: "succeeded" }));
  job.runs.insert = () => Promise.reject(new Error("store down"));
  await assert.rejects(
    startJobRun(w.deps, job, { trigger: "manual", params: { pages: 1 } }),
    /store down/,
  );
  assert.ok(await takeJobLease(w.deps.kv, KEY, { clock: w.deps.clock, ttlMs: 600 }));
});

Deno.test("runs a restart cut off are marked failed only while nobody holds the lease", async () => {
  using w = await toyDeps();
  const { kv, clock } = w.deps;
  const rows: ToyRow[] = [
    { id: "old", status: "running", startedAt: clock.now() - 1000, pages: 1 },
    { id: "younger", status: "running", startedAt: clock.now() + 1000, pages: 1 },
  ];
  const job = toyJob(rows, () => Promise.resolve({ status: "succeeded" }));
  const lease = (await takeJobLease(kv, KEY, { clock, ttlMs: 600 }))!;
  assert.deepEqual(await failInterruptedRuns(w.deps, job), []);
  await lease.release();
  assert.deepEqual(await failInterruptedRuns(w.deps, job), ["old"]);
  assert.equal(rows[1].status, "running");
  assert.equal(rows[0].lastError, "interrupted by a restart");
});

Deno.test("a cron tick awaits its run, and a run already going is logged and skipped", async () => {
  using w = await toyDeps();
  const job = toyJob([], () => Promise.resolve({ status: "succeeded" }));
  const outcome = await cronTick(w.deps, job, () =>
    startJobRun(w.deps, job, {
      trigger: "cron",
      params: { pages: 1 },
    }));
  assert.deepEqual(outcome, { status: "succeeded" });
  assert.equal(await cronTick(w.deps, job, () => Promise.reject(job.busy())), null);
  assert.equal(await cronTick(w.deps, job, () => Promise.reject(new Error("boom"))), null);
  const msgs = w.logs.map((l) => l.msg);
  assert.ok(msgs.includes("toy cron skipped: a run is in progress"));
  assert.ok(msgs.includes("toy cron failed"));
});

Deno.test("restart hooks run now, and again once each one's lease TTL has passed; a failing one is logged", async () => {
  using w = await toyDeps();
  // Sleeps end when the test says, so the first pass is seen alone.
  const sleeps: { ms: number; wake: () => void }[] = [];
  w.deps.clock.sleep = (ms: number) => {
    const { promise, resolve } = Promise.withResolvers<void>();
    sleeps.push({ ms, wake: resolve });
    return promise;
  };
  const ran: string[] = [];
  await recoverAfterRestart(w.deps, [
    { name: "a", leaseTtlMs: 30_000, recover: () => Promise.resolve(void ran.push("a")) },
    { name: "b", leaseTtlMs: 5_000, recover: () => Promise.reject(new Error("down")) },
  ]);
  assert.deepEqual(ran, ["a"]);
  assert.equal(w.logs.filter((l) => l.msg === "recovery after a restart failed").length, 1);
  assert.deepEqual(sleeps.map((s) => s.ms), [31_000, 6_000]);
  for (const s of sleeps) s.wake();
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.deepEqual(ran, ["a", "a"]);
  const failures = w.logs.filter((l) => l.msg === "recovery after a restart failed");
  assert.deepEqual(failures.map((l) => l.job), ["b", "b"]);
});
