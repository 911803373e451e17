/**
 * A lease in KV: held by one owner until released or until it expires by the injected
 * clock, so a holder that dies never blocks the others for long. Used for the per-user
 * generation lock and the catalog import lock.
 */
import type { Clock } from "@/lib/core/clock.ts";
import { getWithRetry, type Kv, type KvKey } from "./kv.ts";
import { type KvDecision, updateKeys } from "./counter.ts";

interface Lease {
  owner: string;
  expiresAt: number;
}

/** A held lease; `release` is safe to call more than once. */
export interface HeldLock {
  owner: string;
  release(): Promise<void>;
  /** Extends the lease by its TTL from now; false when another owner has taken it. */
  renew(): Promise<boolean>;
}

/**
 * The leases this process holds, so that stopping hands them back at once instead of leaving
 * them to run out (a user would wait out a generation lease's five minutes for nothing).
 */
export class HeldLeases {
  readonly #held = new Set<HeldLock>();

  /** Counts `lock` as held until its release. */
  add(lock: HeldLock): void {
    this.#held.add(lock);
  }

  /** Forgets `lock` (its release is under way). */
  delete(lock: HeldLock): void {
    this.#held.delete(lock);
  }

  /** Releases every lease still held; resolves with how many there were. */
  async releaseAll(): Promise<number> {
    const held = [...this.#held];
    await Promise.allSettled(held.map((lock) => lock.release()));
    return held.length;
  }
}

/** How a lease is held: its owner, its TTL and the clock expiry is judged by. */
interface LeaseOptions {
  owner: string;
  ttlMs: number;
  clock: Clock;
}

// Lapsed leases are deleted by KV a minute after they expire by the clock.
function take<R>(key: KvKey, o: LeaseOptions, result: R): KvDecision<R> {
  const lease: Lease = { owner: o.owner, expiresAt: o.clock.now() + o.ttlMs };
  return { result, set: [{ key, value: lease, expireIn: o.ttlMs + 60_000 }] };
}

// Ten rounds: a lease is contended by a handful of instances at most.
const ROUNDS = { attempts: 10 };

/**
 * Tries to take the lease at `key` for `ttlMs`; null when someone else holds it. With `held`,
 * the lease is counted there until released.
 */
export async function tryLock(
  kv: Kv,
  key: KvKey,
  options: { ttlMs: number; clock: Clock; owner?: string; held?: HeldLeases },
): Promise<HeldLock | null> {
  const lease = { ...options, owner: options.owner ?? crypto.randomUUID() };
  const taken = await updateKeys<Lease, boolean>(kv, [key], {
    decide: ([current]) => {
      if (current.value && current.value.expiresAt > options.clock.now()) return { result: false };
      return take(key, lease, true);
    },
    ...ROUNDS,
    exhausted: () => false,
  });
  if (!taken) return null;
  const lock: HeldLock = {
    owner: lease.owner,
    release: () => {
      options.held?.delete(lock);
      return releaseLock(kv, key, { owner: lease.owner });
    },
    renew: () => renewLock(kv, key, lease),
  };
  options.held?.add(lock);
  return lock;
}

/**
 * Extends the lease at `key` by `ttlMs` from now unless another owner has it: a lease of
 * `owner` that ran out but nobody took is taken back; one another owner took stays theirs.
 */
export function renewLock(kv: Kv, key: KvKey, options: LeaseOptions): Promise<boolean> {
  return updateKeys<Lease, boolean>(kv, [key], {
    decide: ([current]) => {
      if (current.value && current.value.owner !== options.owner) return { result: false };
      return take(key, options, true);
    },
    ...ROUNDS,
    exhausted: () => false,
  });
}

/** Releases the lease at `key` if `owner` still holds it. */
function releaseLock(
  kv: Kv,
  key: KvKey,
  options: { owner: string },
): Promise<void> {
  return updateKeys<Lease, void>(kv, [key], {
    decide: ([current]) => {
      if (!current.value || current.value.owner !== options.owner) return { result: undefined };
      return { result: undefined, delete: [key] };
    },
    ...ROUNDS,
    exhausted: () => undefined,
  });
}

/** Whether the lease at `key` is held by anyone now. */
export async function isLeaseHeld(
  kv: Kv,
  key: KvKey,
  options: { clock: Clock },
): Promise<boolean> {
  const current = await getWithRetry<Lease>(kv, key);
  return Boolean(current.value && current.value.expiresAt > options.clock.now());
}
