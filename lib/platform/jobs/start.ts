/**
 * Starting a job's run (lib/platform/jobs/job.ts): the lease first, then the stale runs marked failed
 * and the new run recorded, then the run carried on in the background; the lease is handed
 * back when it ends (unless another instance took it).
 */
import type { AppDeps } from "../deps.ts";
import { takeJobLease } from "./lease.ts";
import type { Job, JobOutcome, RunStart } from "./job.ts";
import { logMarkedFailed } from "./interrupted.ts";

/** A run just started: its id, and its outcome to come (never rejects). */
interface StartedRun<O> {
  runId: string;
  done: Promise<O>;
}

/** Starts a run of `job`; `job.busy()` while a run holds the lease anywhere. */
export async function startJobRun<
  P extends Record<string, unknown>,
  O extends JobOutcome,
  T extends RunStart,
>(
  deps: Pick<AppDeps, "store" | "kv" | "clock" | "log" | "leases">,
  job: Job<P, O, T>,
  request: { trigger: T; params: P },
): Promise<StartedRun<O>> {
  const { store, kv, clock, log } = deps;
  const runId = crypto.randomUUID();
  const { key, ttlMs } = job.lease;
  const lease = await takeJobLease(kv, key, { clock, ttlMs, owner: runId, held: deps.leases });
  if (!lease) throw job.busy();
  const startedAt = clock.now();
  const run = { ...request.params, id: runId, trigger: request.trigger, startedAt };
  try {
    // Holding the lease proves no other run is alive: a row still `running` lost its process.
    const stale = await job.runs.failRunning(store, { now: startedAt, keep: runId });
    logMarkedFailed(deps, job, stale);
    await job.runs.insert(store, run);
  } catch (error) {
    await lease.release();
    throw error;
  }
  const { noun, idField } = job.run;
  log({
    level: "info",
    msg: `${noun} started`,
    [idField]: runId,
    trigger: request.trigger,
    ...request.params,
  });
  const started = performance.now();
  const done = job.execute(run, lease).then(async (outcome) => {
    await lease.release();
    log({
      level: outcome.status === "succeeded" ? "info" : "error",
      msg: `${noun} finished`,
      [idField]: runId,
      trigger: request.trigger,
      ms: Math.round(performance.now() - started),
      ...outcome,
    });
    return outcome;
  });
  return { runId, done };
}
