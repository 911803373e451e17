/**
 * The embedded store: PGlite (Postgres compiled to WASM), persisted in a directory, running on a
 * thread of its own (./pglite_thread.ts).
 */
import { STORE_TIMEOUT_MS, storeDeadline, storeUnavailable } from "./deadline.ts";
import { type DirLock, lockDataDir } from "./dir_lock.ts";
import { CHECK_EVERY_MS } from "./pglite_analyze.ts";
import { initialiseInChild } from "./pglite_init.ts";
import { type Lane, LaneQueue } from "./lanes.ts";
import { pgliteWasm, startPgliteThread, waitingTimer } from "./pglite_thread.ts";
import type { Sql, Store } from "./types.ts";
import { USER_SETTINGS_SQL, userClaims } from "./user_settings.ts";

/**
 * Opens PGlite in `dataDir` (created if missing), in memory when absent, or from a dump. A
 * directory is locked first: a second process on it gets DataDirInUse (lib/store/dir_lock.ts).
 */
export async function openPgliteStore(
  options: {
    dataDir?: string;
    loadDataDir?: Blob | File;
    timeoutMs?: number;
    /** False only in the child that prepares a directory its parent holds (./pglite_init.ts). */
    lock?: boolean;
  } = {},
): Promise<Store & { dump(): Promise<Blob> }> {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  let lock: DirLock | undefined;
  if (options.dataDir) {
    await Deno.mkdir(options.dataDir, { recursive: true });
    if (options.lock !== false) lock = await lockDataDir(options.dataDir);
  }
  const thread = startPgliteThread();
  try {
    if (options.dataDir) await initialiseInChild(options.dataDir);
    const [load, wasmModule] = await Promise.all([
      options.loadDataDir?.arrayBuffer(),
      pgliteWasm(),
    ]);
    const open = { op: "open", dataDir: options.dataDir, load, wasmModule } as const;
    await thread.call(open, load ? [load] : []);
  } catch (error) {
    thread.terminate();
    lock?.release();
    throw error;
  }
  const stats = { queries: 0 };
  const lanes = new LaneQueue();
  // No autovacuum in PGlite: the store analyzes changed tables itself (./pglite_analyze.ts, run
  // on the database's thread), as one background-lane task at a time and at most every few
  // seconds, so no caller waits for it and no backlog of looks grows.
  let lookedAt = performance.now();
  let looking = false;
  const after = <T>(result: T): T => {
    if (!looking && performance.now() - lookedAt >= CHECK_EVERY_MS) {
      looking = true;
      lanes.run("background", () => thread.call({ op: "upkeep" })).catch(() => {})
        .finally(() => [looking, lookedAt] = [false, performance.now()]);
    }
    return result;
  };
  const sql: Sql = {
    async query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return await thread.call<T[]>({ op: "query", sql: text, params });
    },
    async exec(script: string) {
      stats.queries++;
      await thread.call({ op: "exec", sql: script });
    },
  };
  const timer = waitingTimer(thread);
  // PGlite runs one statement at a time: a call waits in its lane (./lanes.ts) for its turn. A
  // call given up on never starts, and a transaction given up on midway rolls back: its client
  // was told 503, so nothing may commit.
  const bounded = <T>(lane: Lane, fn: (guard: () => void) => Promise<T>): Promise<T> => {
    let abandoned = false;
    const guard = () => {
      if (abandoned) throw storeUnavailable();
    };
    return storeDeadline(
      lanes.run(lane, () => {
        guard();
        return fn(guard);
      }),
      timeoutMs,
      { onTimeout: () => abandoned = true, timer },
    ).then(after);
  };
  // The lane holds the one session from BEGIN to COMMIT, so no other call runs in between.
  const transaction = <T>(lane: Lane, fn: (tx: Sql) => Promise<T>): Promise<T> =>
    bounded(lane, async (guard) => {
      await thread.call({ op: "exec", sql: "begin" });
      try {
        const result = await fn(sql);
        guard();
        await thread.call({ op: "exec", sql: "commit" });
        return result;
      } catch (error) {
        await thread.call({ op: "exec", sql: "rollback" }).catch(() => {});
        throw error;
      }
    });
  const calls = (lane: Lane): Omit<Store, "kind" | "stats" | "close" | "background"> => ({
    query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return bounded(lane, () => thread.call<T[]>({ op: "query", sql: text, params }));
    },
    transaction: (fn) => transaction(lane, fn),
    asUser: (userId, fn) =>
      transaction(lane, async (tx) => {
        await tx.query(USER_SETTINGS_SQL, [userClaims(userId)]);
        return await fn(tx);
      }),
    // Migrations may take longer than a request's bound; they run once, at start.
    exec: (script) => lanes.run(lane, () => thread.call({ op: "exec", sql: script })),
  });
  const close = async () => {
    try {
      await thread.call({ op: "close" });
    } finally {
      thread.terminate();
      lock?.release();
    }
  };
  const background: Store = { kind: "embedded", stats, ...calls("background"), close };
  return {
    kind: "embedded",
    stats,
    ...calls("interactive"),
    background,
    dump: async () => new Blob([await thread.call<ArrayBuffer>({ op: "dump" })]),
    close,
  };
}
