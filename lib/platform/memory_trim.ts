/**
 * Gives memory freed by a burst back to the system once the server is idle (docs/faults.md,
 * "Memory of the embedded store"). Two kinds: the C heap's free pages, kept by glibc in the
 * per-thread arenas of V8's background compiler threads (measured, the embedded server idled at
 * 181-228 MB after start, 163-184 MB once `malloc_trim(0)` had run, 9-17 ms); and the JS heap's
 * garbage, which V8 keeps until the next allocation pressure (after `deno task load` 144 MB of
 * heap in use, 33 MB of it live). `malloc_trim` needs Linux with glibc and FFI; the collection
 * needs `--v8-flags=--expose-gc` (SERVER_V8_FLAGS, which `deno task start` passes). Elsewhere
 * nothing happens.
 */

/** How long the server must have answered nothing before it trims (one check per period). */
export const IDLE_TRIM_MS = 1_000;

/**
 * How long the server must have answered nothing before the low-memory collection, which also
 * shrinks V8's young generation: measured, a burst after it ran at half speed for 1-3 s while the
 * young generation grew back (every scavenge copying the requests in flight), so a pause of a
 * second between bursts gets the ordinary collection and only a quiet server the deep one.
 */
export const DEEP_IDLE_MS = 30_000;

/**
 * The memory a quiet server keeps to (RSS, bytes; docs/faults.md): still past it
 * BUDGET_SETTLE_PERIODS after the ordinary release, the deep one runs then, memory before warmth.
 * The bounds BENCHMARKS.md holds the server to after a load.
 */
export const MEMORY_BUDGET = { embedded: 300 * 1024 * 1024, postgres: 250 * 1024 * 1024 };

/**
 * Quiet periods between the ordinary release and the budget's check: the pages a collection
 * empties go back to the system later (V8's pool, emptied by its memory reducer a second into a
 * quiet spell under SERVER_V8_FLAGS), so RSS read at once still counts them (measured after
 * `deno task load`: 356 MB as the ordinary release ran and 335 MB two seconds on when nothing
 * emptied the pool; 262-266 MB three seconds after the load with the memory reducer's delay at 1 s).
 */
const BUDGET_SETTLE_PERIODS = 2;

/**
 * The V8 flags the server runs with (`deno task start`, deploy/movies.service, the tests' and
 * benchmarks' servers; docs/faults.md, "Memory of the embedded store"). `--expose-gc`: the idle
 * collection. `--max-semi-space-size=8`: the young generation at most 2 x 8 MiB instead of V8's
 * 2 x 32 MiB here, which a burst fills and no ordinary collection gives back (Deno's
 * `Deno.serveHttp`, which lib/http/serve_sockets.ts serves with, keeps about 4 % of what a
 * request allocates past one scavenge, so V8 grows the young generation to its maximum).
 * `--memory-reducer-delay-ms=1000`: V8's own memory-reducing collection a second into a quiet
 * spell instead of eight; unlike the deep release it keeps the compiled code, and it is the one
 * thing that hands V8's pooled pages back at idle (its pool's timer, `--memory-pool-timeout=1`
 * here, only runs while collections keep adding pages). `--min-semi-space-size=4`: what that
 * collection shrinks the young generation to, so the next burst does not start from a few KB.
 */
export const SERVER_V8_FLAGS =
  "--expose-gc,--max-semi-space-size=8,--min-semi-space-size=4,--memory-pool-timeout=1,--memory-reducer-delay-ms=1000";

/** glibc's `malloc_trim(0)` (1 when it released memory), or null where it is unavailable. */
export function loadMallocTrim(): (() => number) | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => libc.symbols.malloc_trim(0n);
  } catch {
    // musl, no FFI permission, or a platform without dlopen (Deno Deploy).
    return null;
  }
}

/** The idle rule: `activity()` on each request, `tick()` once a period releases when due. */
interface IdleTrim {
  activity(): void;
  /**
   * Releases when no request came since the last tick: the ordinary release once after each
   * burst, the deep one once the quiet has lasted `deepAfter` periods, or `settle` periods after
   * the ordinary one when `overBudget()` still says so, and on the first quiet tick after
   * start-up (nothing is warm yet). True when it released.
   */
  tick(): boolean;
}

/** The idle rule around `release` (its argument: whether the release is the deep one). */
export function idleTrim(
  release: (deep: boolean) => number,
  options: { deepAfter?: number; overBudget?: () => boolean; settle?: number } = {},
): IdleTrim {
  const deepAfter = options.deepAfter ?? DEEP_IDLE_MS / IDLE_TRIM_MS;
  const overBudget = options.overBudget ?? (() => false);
  const settle = options.settle ?? BUDGET_SETTLE_PERIODS;
  let requests = 0;
  let seen = 0;
  let quiet = 0;
  let released = -1;
  let releasedAt = 0;
  let deepened = -1;
  return {
    activity: () => void requests++,
    tick() {
      if (requests !== seen) {
        seen = requests;
        quiet = 0;
        return false;
      }
      quiet++;
      // The first release after start-up goes deep: nothing is warm yet that it could cool.
      let deep = deepened === -1 || (deepened !== requests && quiet >= deepAfter);
      // Still holding more than the budget once the ordinary release has settled: the deep one.
      if (
        !deep && released === requests && deepened !== requests &&
        quiet >= releasedAt + settle && overBudget()
      ) deep = true;
      if (!deep && released === requests) return false;
      release(deep);
      if (released !== requests) releasedAt = quiet;
      released = requests;
      if (deep) deepened = requests;
      return true;
    },
  };
}

/**
 * Heap growth since the last collection after which an idle tick collects (16 MiB, the young
 * generation's size under SERVER_V8_FLAGS): with the young generation capped, a 3-s burst of the
 * cached detail grew the heap by 26 MiB, under the 32 MiB this was, and kept its garbage.
 */
export const IDLE_GC_GROWTH = 16 * 1024 * 1024;

/**
 * Heap in use above which an idle tick does not collect (256 MiB): such a heap is a running
 * import's or job's live data, and a full collection's pause grows with it (seconds at 900 MB).
 */
export const IDLE_GC_MAX_HEAP = 256 * 1024 * 1024;

/**
 * V8's full collection where `gc` is exposed (`--v8-flags=--expose-gc`), else null; `deep` asks
 * for the low-memory one.
 */
export function loadCollector(): ((deep: boolean) => void) | null {
  const gc = (globalThis as { gc?: (options: object) => unknown }).gc;
  if (typeof gc !== "function") return null;
  // "last-resort" also shrinks the young generation and hands back the heap's empty pages,
  // which a plain full collection keeps (RSS after load 288 MB with one, 189-210 with this).
  return (deep) =>
    void gc({ type: "major", execution: "sync", flavor: deep ? "last-resort" : "regular" });
}

/**
 * The most full collections an ordinary release runs, one after another while each still shrinks
 * the heap by a MiB. One compacts at most 4 MiB of live objects (V8's
 * `--compaction-max-evacuated-bytes-mb`), and a load leaves its ~25 MiB of live data scattered
 * over 70-100 MiB of old-generation pages: measured, 101.8 -> 70.8 -> 27.5 MiB committed in
 * three passes (60-140 ms in all), where one left 73 MiB and the server at 334-338 MB.
 */
export const ORDINARY_PASSES = 3;

const MiB = 1024 * 1024;

/** What an idle release uses; the heap reader is injectable for tests. */
interface ReleaseParts {
  trim: (() => number) | null;
  collect: ((deep: boolean) => void) | null;
  /** The heap's size and use in bytes (Deno.memoryUsage's). */
  heap?: () => { heapTotal: number; heapUsed: number };
}

/**
 * The release an idle tick runs: a collection when the heap grew by IDLE_GC_GROWTH since the
 * last one (the first tick after start-up collects) or when the release is the deep one, never
 * while the heap holds IDLE_GC_MAX_HEAP in use, the ordinary one repeated (ORDINARY_PASSES) while
 * it still shrinks the heap; then the C heap's trim. Null when neither is available.
 */
export function idleRelease(parts: ReleaseParts): ((deep: boolean) => number) | null {
  const { trim, collect } = parts;
  if (!trim && !collect) return null;
  const heap = parts.heap ?? (() => Deno.memoryUsage());
  let baseline = -Infinity;
  return (deep) => {
    if (collect) {
      const before = heap();
      const grown = before.heapTotal >= baseline + IDLE_GC_GROWTH;
      if ((deep || grown) && before.heapUsed < IDLE_GC_MAX_HEAP) {
        let size = before.heapTotal;
        collect(deep);
        baseline = heap().heapTotal;
        for (let pass = 1; !deep && pass < ORDINARY_PASSES && size - baseline >= MiB; pass++) {
          size = baseline;
          collect(false);
          baseline = heap().heapTotal;
        }
      }
    }
    return trim?.() ?? 0;
  };
}

/**
 * Releases once the process has been idle for a whole period after start-up or after requests,
 * so a burst's freed memory goes back without ever pausing a busy server (a check per period,
 * on a timer that does not keep the process alive). Null where neither release is available.
 */
export function trimWhenIdle(
  options: { periodMs: number; budgetBytes: number },
): IdleTrim & { stop(): void } | null {
  const release = idleRelease({ trim: loadMallocTrim(), collect: loadCollector() });
  if (!release) return null;
  const rule = idleTrim(release, {
    deepAfter: Math.ceil(DEEP_IDLE_MS / options.periodMs),
    overBudget: () => Deno.memoryUsage().rss > options.budgetBytes,
  });
  const timer = setInterval(rule.tick, options.periodMs);
  Deno.unrefTimer(timer);
  return { ...rule, stop: () => clearInterval(timer) };
}
