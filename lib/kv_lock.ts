/**
 * A lease in KV: held by one owner until released or until it expires by the injected
 * clock, so a holder that dies never blocks the others for long. Used for the per-user
 * generation lock and the catalog import lock.
 */
import type { Clock } from "./clock.ts";
import { commitWithRetry, getWithRetry } from "./kv.ts";

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

/** How a lease is held: its owner, its TTL and the clock expiry is judged by. */
export interface LeaseOptions {
  owner: string;
  ttlMs: number;
  clock: Clock;
}

// Lapsed leases are deleted by KV a minute after they expire by the clock.
function write(kv: Deno.Kv, key: Deno.KvKey, current: Deno.KvEntryMaybe<Lease>, o: LeaseOptions) {
  const lease: Lease = { owner: o.owner, expiresAt: o.clock.now() + o.ttlMs };
  return commitWithRetry(() =>
    kv.atomic().check(current).set(key, lease, { expireIn: o.ttlMs + 60_000 })
  );
}

/** Tries to take the lease at `key` for `ttlMs`; null when someone else holds it. */
export async function tryLock(
  kv: Deno.Kv,
  key: Deno.KvKey,
  options: { ttlMs: number; clock: Clock; owner?: string },
): Promise<HeldLock | null> {
  const lease = { ...options, owner: options.owner ?? crypto.randomUUID() };
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getWithRetry<Lease>(kv, key);
    if (current.value && current.value.expiresAt > options.clock.now()) return null;
    if ((await write(kv, key, current, lease)).ok) {
      return {
        owner: lease.owner,
        release: () => releaseLock(kv, key, lease.owner),
        renew: () => renewLock(kv, key, lease),
      };
    }
  }
  return null;
}

/**
 * Extends the lease at `key` by `ttlMs` from now unless another owner has it: a lease of
 * `owner` that ran out but nobody took is taken back; one another owner took stays theirs.
 */
export async function renewLock(
  kv: Deno.Kv,
  key: Deno.KvKey,
  options: LeaseOptions,
): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getWithRetry<Lease>(kv, key);
    if (current.value && current.value.owner !== options.owner) return false;
    if ((await write(kv, key, current, options)).ok) return true;
  }
  return false;
}

/** Releases the lease at `key` if `owner` still holds it. */
export async function releaseLock(kv: Deno.Kv, key: Deno.KvKey, owner: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getWithRetry<Lease>(kv, key);
    if (!current.value || current.value.owner !== owner) return;
    const result = await commitWithRetry(() => kv.atomic().check(current).delete(key));
    if (result.ok) return;
  }
}

/** Whether the lease at `key` is held now. */
export async function isLocked(kv: Deno.Kv, key: Deno.KvKey, clock: Clock): Promise<boolean> {
  const current = await getWithRetry<Lease>(kv, key);
  return Boolean(current.value && current.value.expiresAt > clock.now());
}
