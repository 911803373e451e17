/**
 * V8's full collection after a history read that left much behind (docs/history.md, "Uploads at
 * once"; issue 43). A read leaves its text, parsed entries and rows as garbage that V8 collects
 * only once the heap reaches its limit: five 20 MiB uploads in a row peaked at 780-978 MB with
 * V8's timing, and at 590-666 MB with one collection after each read (19-58 ms each, the heap
 * then 44-147 MB). A read refused half-way counts too: a ZIP of 2 MiB is read to its 500,001st
 * row before it is refused.
 */
import { loadCollector } from "@/lib/platform/memory_trim.ts";

const MiB = 1024 * 1024;
/** A read after which the heap in use grew by this much gets a collection. */
const COLLECT_AFTER_GROWTH = 32 * MiB;
/**
 * Past this much heap in use no collection runs: a collection's pause grows with the live data,
 * and this much is someone else's (the runs keep their films in the store).
 */
const COLLECT_MAX_HEAP = 512 * MiB;

/** Measures one read: `start()` before it, and the function it answers after it. */
interface ReadCollector {
  start(): () => void;
}

/**
 * Collects after a read when the heap in use grew by 32 MiB or more over it and holds under 512
 * MiB; `collect` defaults to the server's full collection where `--expose-gc` exposes it (null:
 * none); `heapUsed` is injectable for tests.
 */
export function collectAfterRead(
  collect?: (() => void) | null,
  heapUsed: () => number = () => Deno.memoryUsage().heapUsed,
): ReadCollector {
  const run = collect === undefined ? defaultCollect() : collect;
  return {
    start() {
      if (!run) return () => {};
      const before = heapUsed();
      return () => {
        const now = heapUsed();
        if (now - before >= COLLECT_AFTER_GROWTH && now < COLLECT_MAX_HEAP) run();
      };
    },
  };
}

function defaultCollect(): (() => void) | null {
  const gc = loadCollector();
  return gc && (() => gc(false));
}
