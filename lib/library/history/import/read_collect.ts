/**
 * V8's full collection after the read of a large history file (docs/history.md, "Uploads at
 * once"; issue 43). A read leaves its text, parsed entries and rows behind as garbage that V8
 * collects only once the heap reaches its limit: five 20 MiB uploads in a row peaked at 780-978 MB
 * with V8's timing, and at 590-651 MB with one collection after each read (19-58 ms each, the heap
 * then 44-147 MB).
 */
import { IDLE_GC_MAX_HEAP, loadCollector } from "@/lib/platform/memory_trim.ts";

/** Files from this size get a collection after their read. */
const COLLECT_AFTER_BYTES = 4 * 1024 * 1024;

/**
 * What runs after the read of a file of `size` bytes: `collect` (default: the server's full
 * collection where `--expose-gc` exposes it; null: none) when the file had 4 MiB or more, unless
 * the heap holds 256 MiB or more in use (someone else's live data, where the idle collection
 * stands back too: the pause grows with it).
 */
export function collectAfterRead(collect?: (() => void) | null): (size: number) => void {
  const run = collect === undefined ? defaultCollect() : collect;
  return (size) => {
    if (run && size >= COLLECT_AFTER_BYTES && Deno.memoryUsage().heapUsed < IDLE_GC_MAX_HEAP) {
      run();
    }
  };
}

function defaultCollect(): (() => void) | null {
  const gc = loadCollector();
  return gc && (() => gc(false));
}
