/**
 * The per-user generation lease: one generation per user at a time across every instance,
 * kept alive by a heartbeat on the injected clock while the generation runs.
 */
import type { Kv, KvKey } from "../platform/kv/kv.ts";
import type { Clock } from "../core/clock.ts";
import type { AppDeps } from "../platform/deps.ts";
import { type HeldLeases, type HeldLock, isLeaseHeld, tryLock } from "../platform/kv/lock.ts";
import { describeError } from "../core/log.ts";
import { generationInProgress } from "./answers.ts";

/** A lock outlives any sane generation, and expires by itself if its process dies. */
export const LOCK_TTL_MS = 5 * 60_000;

const leaseKey = (userId: string): KvKey => ["recommend_lock", userId];

/** Whether a generation of the user's is running: the lease read, not taken (nothing written). */
export function isGenerationRunning(
  kv: Kv,
  userId: string,
  options: { clock: Clock },
): Promise<boolean> {
  return isLeaseHeld(kv, leaseKey(userId), options);
}

/** Takes the user's generation lease; null when a generation of theirs is running. */
export function takeGenerationLease(
  kv: Kv,
  userId: string,
  options: { clock: Clock; ttlMs?: number; held?: HeldLeases },
): Promise<HeldLock | null> {
  const ttlMs = options.ttlMs ?? LOCK_TTL_MS;
  const { clock, held } = options;
  return tryLock(kv, leaseKey(userId), { ttlMs, clock, held });
}

/** Runs `work` holding the user's lease (409 when another generation holds it). */
export async function withGenerationLease<T>(
  deps: Pick<AppDeps, "kv" | "clock" | "log" | "leases">,
  work: () => Promise<T>,
  options: { userId: string; ttlMs?: number },
): Promise<T> {
  const { kv, clock, log } = deps;
  const ttlMs = options.ttlMs ?? LOCK_TTL_MS;
  const lease = await takeGenerationLease(kv, options.userId, { clock, ttlMs, held: deps.leases });
  if (!lease) throw generationInProgress();
  // Rounds times providers times models at 30 s each can outlast the TTL: keep the lease
  // while this process works, so a second request cannot start a second generation.
  const stopHeartbeat = clock.every(Math.max(1, Math.floor(ttlMs / 3)), () => {
    lease.renew().catch((error) =>
      log({ level: "warn", msg: "recommend lock renewal failed", error: describeError(error) })
    );
  });
  try {
    return await work();
  } finally {
    stopHeartbeat();
    // The answer is ready: a KV failure here must not turn it into a 500 (and a lost quota
    // unit); the lease then expires by itself.
    await lease.release().catch((error) =>
      log({ level: "warn", msg: "recommend lock release failed", error: describeError(error) })
    );
  }
}
