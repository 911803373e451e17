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
}

/** Tries to take the lease at `key` for `ttlMs`; null when someone else holds it. */
export async function tryLock(
  kv: Deno.Kv,
  key: Deno.KvKey,
  options: { ttlMs: number; clock: Clock; owner?: string },
): Promise<HeldLock | null> {
  const owner = options.owner ?? crypto.randomUUID();
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getWithRetry<Lease>(kv, key);
    const now = options.clock.now();
    if (current.value && current.value.expiresAt > now) return null;
    const lease: Lease = { owner, expiresAt: now + options.ttlMs };
    const result = await commitWithRetry(() =>
      kv.atomic().check(current).set(key, lease, { expireIn: options.ttlMs + 60_000 })
    );
    if (result.ok) {
      return { owner, release: () => releaseLock(kv, key, owner) };
    }
  }
  return null;
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
