/**
 * A background job's lease (docs/faults.md, "Background jobs"): the KV lease of lib/platform/kv/lock.ts
 * with the heartbeat every job needs. A run renews it every sixth of its TTL of clock time as
 * it makes progress, so a long run keeps it and a dead holder's lease runs out by itself; a
 * renewal that finds another owner marks it lost, and the run stops before two runs overlap.
 */
import type { Kv, KvKey } from "../kv/kv.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { type HeldLeases, type HeldLock, tryLock } from "../kv/lock.ts";

/** A held job lease. */
export interface JobLease {
  /** The run that holds it. */
  readonly owner: string;
  /** True once a renewal found the lease another owner's. */
  readonly lost: boolean;
  /** Whether a heartbeat is due (a sixth of the TTL since the last); claims it when it is. */
  due(): boolean;
  /** Renews now; false (and `lost`) when another owner has taken it. */
  renew(): Promise<boolean>;
  /** Renews when due; false once the lease is lost. */
  heartbeat(): Promise<boolean>;
  /** Hands the lease back unless it was lost; never throws (an unreleased lease runs out). */
  release(): Promise<void>;
}

/** How often a run renews a lease of `ttlMs`: six tries before it could run out. */
function heartbeatMs(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 6));
}

/**
 * Takes the lease at `key` for `ttlMs` (owned by `owner`, a fresh id by default); null while
 * another owner holds it. With `held`, shutdown hands it back (lib/platform/kv/lock.ts HeldLeases).
 */
export async function takeJobLease(
  kv: Kv,
  key: KvKey,
  options: { clock: Clock; ttlMs: number; owner?: string; held?: HeldLeases },
): Promise<JobLease | null> {
  const lock = await tryLock(kv, key, options);
  return lock ? jobLease(lock, options) : null;
}

function jobLease(lock: HeldLock, options: { clock: Clock; ttlMs: number }): JobLease {
  const { clock } = options;
  const everyMs = heartbeatMs(options.ttlMs);
  let lastBeat = clock.now();
  let lost = false;
  const renew = async () => {
    if (lost) return false;
    if (!(await lock.renew())) lost = true;
    return !lost;
  };
  const due = () => {
    if (clock.now() - lastBeat < everyMs) return false;
    lastBeat = clock.now();
    return true;
  };
  return {
    owner: lock.owner,
    get lost() {
      return lost;
    },
    due,
    renew,
    heartbeat: () => due() ? renew() : Promise.resolve(!lost),
    release: () => lost ? Promise.resolve() : lock.release().catch(() => {}),
  };
}
