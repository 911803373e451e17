/**
 * Where the shared counts, windows, leases and small caches live (docs/coordination.md):
 * Deno KV (COORDINATION=kv, the default) or PostgreSQL's `coordination` schema over the
 * store's own connections (COORDINATION=postgres).
 */
import type { Clock } from "@/lib/core/clock.ts";
import type { Config } from "@/lib/core/config.ts";
import { type Kv, openKv } from "../kv/kv.ts";
import type { Store } from "../store/mod.ts";
import { PgKv } from "./pg_kv.ts";

/** Opens the KV `config.coordination` names. */
export async function openCoordination(
  config: Pick<Config, "coordination" | "kvPath">,
  deps: { store: Store; clock: Clock },
): Promise<Kv> {
  if (config.coordination === "kv") return await openKv(config.kvPath);
  if (deps.store.kind !== "postgres") {
    throw new Error("COORDINATION=postgres needs the store on DATABASE_URL");
  }
  return new PgKv(deps.store, { clock: deps.clock });
}
