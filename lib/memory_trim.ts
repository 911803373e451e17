/**
 * Gives the C heap's free pages back to the system (docs/faults.md, "Memory of the embedded
 * store"). V8 compiles PGlite's WebAssembly and the app on background threads whose scratch
 * memory glibc keeps in per-thread arenas after it is freed: measured, the embedded server idled
 * at 181-228 MB after start, 163-184 MB once `malloc_trim(0)` had run (9-17 ms). Only on Linux
 * with glibc and where FFI is allowed (a plain `deno run -A`); elsewhere nothing happens.
 */

/** How long the server must have answered nothing before it trims (one check per period). */
export const IDLE_TRIM_MS = 1_000;

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

/** The idle rule: `activity()` on each request, `tick()` once a period trims when due. */
interface IdleTrim {
  activity(): void;
  /** Trims when no request came since the last tick and some did since the last trim. */
  tick(): boolean;
}

/** The idle rule around `trim` (the first idle tick after start-up trims too). */
export function idleTrim(trim: () => number): IdleTrim {
  let requests = 0;
  let seen = 0;
  let trimmedAt = -1;
  return {
    activity: () => void requests++,
    tick() {
      const due = requests === seen && requests !== trimmedAt;
      seen = requests;
      if (!due) return false;
      trim();
      trimmedAt = requests;
      return true;
    },
  };
}

/**
 * Trims once the process has been idle for a whole period after start-up or after requests,
 * so a burst's freed memory goes back without ever pausing a busy server (a check per period,
 * on a timer that does not keep the process alive). Null where trimming is unavailable.
 */
export function trimWhenIdle(options: { periodMs: number }): IdleTrim & { stop(): void } | null {
  const trim = loadMallocTrim();
  if (!trim) return null;
  const rule = idleTrim(trim);
  const timer = setInterval(rule.tick, options.periodMs);
  Deno.unrefTimer(timer);
  return { ...rule, stop: () => clearInterval(timer) };
}
