/**
 * The import lock: one KV lease (lib/kv_lock.ts) shared by every instance, owned by the
 * running import's id. The run renews it as it makes progress, so a long run keeps it and a
 * dead holder's lease runs out by itself.
 */
import type { Clock } from "../../clock.ts";
import { type HeldLeases, type HeldLock, isLeaseHeld, tryLock } from "../../kv_lock.ts";

/** The KV key of the import lease. */
export const IMPORT_LOCK_KEY: Deno.KvKey = ["catalog_import_lock"];

/** How long the lease lasts without a renewal. */
export const IMPORT_LOCK_TTL_MS = 30_000;

/** A held import lock; `renew` extends it by its TTL from now (false once lost). */
export type ImportLock = HeldLock;

/** Takes the import lock for `importId`; null while another import holds it. */
export async function takeImportLock(
  kv: Deno.Kv,
  importId: string,
  options: { clock: Clock; ttlMs?: number; held?: HeldLeases },
): Promise<ImportLock | null> {
  const ttlMs = options.ttlMs ?? IMPORT_LOCK_TTL_MS;
  const { clock, held } = options;
  return await tryLock(kv, IMPORT_LOCK_KEY, { ttlMs, clock, owner: importId, held });
}

/** Whether any instance holds the import lock now. */
export function importLockHeld(kv: Deno.Kv, clock: Clock): Promise<boolean> {
  return isLeaseHeld(kv, IMPORT_LOCK_KEY, { clock });
}
