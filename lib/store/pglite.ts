/** The embedded store: PGlite (Postgres compiled to WASM), persisted in a directory. */
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { STORE_TIMEOUT_MS, storeDeadline, storeUnavailable } from "./deadline.ts";
import { type DirLock, lockDataDir } from "./dir_lock.ts";
import { autoAnalyze } from "./pglite_analyze.ts";
import { initialiseInChild } from "./pglite_init.ts";
import { PGLITE_START_PARAMS } from "./pglite_params.ts";
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
  let db: PGlite;
  try {
    if (options.dataDir) await initialiseInChild(options.dataDir);
    db = await PGlite.create({
      startParams: PGLITE_START_PARAMS,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const stats = { queries: 0 };
  // No autovacuum in PGlite: the store analyzes changed tables itself (./pglite_analyze.ts).
  const analyze = autoAnalyze(db);
  const after = async <T>(result: T): Promise<T> => {
    await analyze();
    return result;
  };
  const wrap = (tx: Transaction): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return (await tx.query<T>(text, params)).rows;
    },
    async exec(script: string) {
      stats.queries++;
      await tx.exec(script);
    },
  });
  // PGlite runs one statement at a time: a call waits behind a long transaction. A transaction
  // given up on rolls back, or never starts: its client was told 503, so nothing may commit.
  const transaction = <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    let abandoned = false;
    const guard = () => {
      if (abandoned) throw storeUnavailable();
    };
    return storeDeadline(
      db.transaction(async (tx) => {
        guard();
        const result = await fn(tx);
        guard();
        return result;
      }),
      timeoutMs,
      () => abandoned = true,
    ).then(after);
  };
  return {
    kind: "embedded",
    stats,
    query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return storeDeadline(db.query<T>(text, params).then((result) => result.rows), timeoutMs)
        .then(after);
    },
    transaction: (fn) => transaction((tx) => fn(wrap(tx))),
    asUser: (userId, fn) =>
      transaction(async (tx) => {
        await tx.query(USER_SETTINGS_SQL, [userClaims(userId)]);
        return await fn(wrap(tx));
      }),
    async exec(script) {
      await db.exec(script);
    },
    dump: () => db.dumpDataDir("none"),
    async close() {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}
