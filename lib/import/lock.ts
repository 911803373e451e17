/**
 * The import lock: one KV lease (lib/kv_lock.ts) shared by every instance, owned by the
 * running import's id. The run renews it as it makes progress, so a long run keeps it and a
 * dead holder's lease runs out by itself.
 */
import type { Clock } from "../clock.ts";
import { commitWithRetry, getWithRetry } from "../kv.ts";
import { type HeldLock, isLocked, tryLock } from "../kv_lock.ts";

/** The KV key of the import lease. */
export const IMPORT_LOCK_KEY: Deno.KvKey = ["catalog_import_lock"];

/** How long the lease lasts without a renewal. */
export const IMPORT_LOCK_TTL_MS = 30_000;

/** The lease as lib/kv_lock.ts stores it; renewal must write the same shape. */
interface Lease {
  owner: string;
  expiresAt: number;
}

/** A held import lock that can be extended. */
export interface ImportLock extends HeldLock {
  /** Extends the lease by its TTL from now; false when it was lost (expired and taken). */
  renew(): Promise<boolean>;
}

/** Takes the import lock for `importId`; null while another import holds it. */
export async function takeImportLock(
  kv: Deno.Kv,
  importId: string,
  options: { clock: Clock; ttlMs?: number },
): Promise<ImportLock | null> {
  const ttlMs = options.ttlMs ?? IMPORT_LOCK_TTL_MS;
  const held = await tryLock(kv, IMPORT_LOCK_KEY, { ttlMs, clock: options.clock, owner: importId });
  if (!held) return null;
  return {
    owner: held.owner,
    release: held.release,
    renew: () => renewLease(kv, IMPORT_LOCK_KEY, { owner: importId, ttlMs, clock: options.clock }),
  };
}

/** Whether any instance holds the import lock now. */
export function importLockHeld(kv: Deno.Kv, clock: Clock): Promise<boolean> {
  return isLocked(kv, IMPORT_LOCK_KEY, clock);
}

// Extends the lease unless another owner has it: a lease of ours that ran out but nobody took
// is taken back, one that another instance took stays theirs.
async function renewLease(
  kv: Deno.Kv,
  key: Deno.KvKey,
  options: { owner: string; ttlMs: number; clock: Clock },
): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getWithRetry<Lease>(kv, key);
    const now = options.clock.now();
    if (current.value && current.value.owner !== options.owner) return false;
    const next: Lease = { owner: options.owner, expiresAt: now + options.ttlMs };
    const result = await commitWithRetry(() =>
      kv.atomic().check(current).set(key, next, { expireIn: options.ttlMs + 60_000 })
    );
    if (result.ok) return true;
  }
  return false;
}
