/**
 * Deno KV: the shared home of counters, windows, locks and small caches. Several local
 * processes sharing one SQLite file see `database is locked` under contention, so every
 * commit here goes through `commitWithRetry`.
 */

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

/**
 * Runs an atomic operation built by `build`, retrying after a short random pause when the
 * local KV file is locked by another process. Returns the commit result (ok or version clash).
 */
export async function commitWithRetry(
  build: () => Deno.AtomicOperation,
  options: { attempts?: number } = {},
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  const attempts = options.attempts ?? 50;
  for (let i = 0;; i++) {
    try {
      return await build().commit();
    } catch (error) {
      if (!isBusyFile(error) || i >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * Math.min(i + 1, 5)));
    }
  }
}

/** Reads a key, retrying while the local KV file is locked. */
export async function getWithRetry<T>(kv: Deno.Kv, key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
  for (let i = 0;; i++) {
    try {
      return await kv.get<T>(key);
    } catch (error) {
      if (!isBusyFile(error) || i >= 50) throw error;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 10));
    }
  }
}
