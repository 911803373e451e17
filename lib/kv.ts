/**
 * Deno KV: the shared home of counters, windows, locks and small caches. Several local
 * processes sharing one SQLite file see `database is locked` under contention, so every
 * commit here goes through `commitWithRetry`.
 */
import { retry } from "./async/retry.ts";

/** Opens KV at `path`, or the platform KV when `path` is undefined (Deno Deploy). */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path) {
    const dir = path.replace(/[/\\][^/\\]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await Deno.openKv(path);
}

function isBusyFile(error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

// A short random wall-clock pause: two processes contending for the file must not retry in
// step. `attempt` is the try that failed, from 1.
function busyPause(attempt: number, spreadMs: number): Promise<void> {
  return new Promise((r) => setTimeout(r, 2 + Math.random() * spreadMs * Math.min(attempt, 5)));
}

/**
 * Runs an atomic operation built by `build`, retrying after a short random pause when the
 * local KV file is locked by another process. Returns the commit result (ok or version clash).
 */
export function commitWithRetry(
  build: () => Deno.AtomicOperation,
  options: { attempts?: number } = {},
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  return retry(() => build().commit(), {
    attempts: (options.attempts ?? 50) + 1,
    retryable: isBusyFile,
    pause: (attempt) => busyPause(attempt, 10),
  });
}

/** Reads a key, retrying while the local KV file is locked. */
export function getWithRetry<T>(kv: Deno.Kv, key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
  return retry(() => kv.get<T>(key), {
    attempts: 51,
    retryable: isBusyFile,
    pause: () => busyPause(1, 10),
  });
}
