/**
 * Storing a fresh run's units, after the upload's 202 (a 20 MiB file holds 370,000 of them; a
 * restart before they all are fails the run, service.ts `resumeOne`). They wait as the JSON of
 * their chunks, each let go once stored, and the run reads them back a few at a time
 * (./unit_source.ts; docs/history.md, "Uploads at once").
 */
import type { BackgroundTurns } from "@/lib/core/async/background_turns.ts";
import type { Clock } from "@/lib/core/clock.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { failRun, type RunEnd } from "./execute.ts";
import { storeUnits } from "./runs.ts";
import { Slicer } from "./slices.ts";
import { type FreshUnits, storedUnits, type UnitSource } from "./unit_source.ts";

/**
 * Stores run `id`'s units in the background lane, taking turns with the other imports; answers
 * where the run reads them from once all are stored, else how it ended here (cancelled or taken
 * over: abandoned; a failure: failed, recorded).
 */
export async function storeFresh(
  run: { id: string; fresh: FreshUnits },
  deps: { store: Store; lease: JobLease; turns?: BackgroundTurns; clock: Clock; log: Logger },
): Promise<UnitSource | RunEnd> {
  const slicer = new Slicer(undefined, deps.turns);
  try {
    const stored = await storeUnits(deps.store, { id: run.id, chunks: run.fresh.chunks }, {
      pause: () => slicer.tick(),
      keep: () => deps.lease.heartbeat(),
    });
    return stored ? storedUnits(deps.store, { id: run.id, ...run.fresh }) : "abandoned";
  } catch (error) {
    return await failRun(run.id, error, deps);
  } finally {
    slicer.done();
  }
}
