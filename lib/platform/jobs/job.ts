/**
 * The shape every background job has (docs/faults.md, "Background jobs"): a name, one KV lease
 * (one run at a time across every instance), a runs table written as the run goes, and a run
 * carried on in the background holding the lease with a heartbeat. lib/platform/jobs/start.ts starts a
 * run, lib/platform/jobs/interrupted.ts marks the runs a restart cut off, lib/platform/jobs/cron.ts is a tick.
 */
import type { KvKey } from "../kv/kv.ts";
import type { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "../store/mod.ts";
import type { JobLease } from "./lease.ts";

/** What started a run. */
export type JobTrigger = "manual" | "cron";

/** What started a run, a feature's ask for one included (the details job's "asked" runs). */
export type RunStart = JobTrigger | "asked";

/**
 * A run as a job's runs table and executor see it; `P` is the job's own parameters, `T` what
 * may start it.
 */
type JobRun<P, T extends RunStart = JobTrigger> = P & { id: string; trigger: T; startedAt: number };

/** How a run ended (the job's outcome carries its counters beside this). */
export interface JobOutcome {
  status: "succeeded" | "failed";
}

/** A job's runs table. */
interface JobRuns<P, T extends RunStart> {
  /** Records a new run as `running`. */
  insert(sql: Sql, run: JobRun<P, T>): Promise<void>;
  /**
   * Marks `running` runs failed (their process is gone): all but `keep`, and only those
   * started before `startedBefore` when given. Returns their ids.
   */
  failRunning(
    sql: Sql,
    options: { now: number; keep?: string; startedBefore?: number },
  ): Promise<string[]>;
}

/** What a job is without its executor: enough to record runs and recover after a restart. */
export interface JobRecords<P, T extends RunStart = JobTrigger> {
  /** How logs name the job; a cron tick logs "<name> cron skipped: a run is in progress". */
  name: string;
  /** How logs name one run ("catalog import", "availability run") and its id field. */
  run: { noun: string; idField: string };
  /** The KV lease a run holds, and its lifetime without a renewal. */
  lease: { key: KvKey; ttlMs: number };
  runs: JobRuns<P, T>;
  /** The 409 a start meets while a run holds the lease. */
  busy(): Problem;
}

/** A background job: its records and how one run is carried on. */
export interface Job<P, O extends JobOutcome, T extends RunStart = JobTrigger>
  extends JobRecords<P, T> {
  /**
   * Carries `run` on holding `lease`, renewing it with `lease.heartbeat()` as it makes
   * progress and stopping once it is lost; writes its outcome to the run's row; never throws.
   */
  execute(run: JobRun<P, T>, lease: JobLease): Promise<O>;
}
