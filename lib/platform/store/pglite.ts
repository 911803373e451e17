/** The embedded store: PGlite (Postgres compiled to WASM), persisted in a directory. */
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { everySlice } from "@/lib/core/async/every_slice.ts";
import { STORE_TIMEOUT_MS, storeDeadline, storeUnavailable } from "./deadline.ts";
import { type DirLock, lockDataDir } from "./dir_lock.ts";
import { autoAnalyze } from "./pglite_analyze.ts";
import { initialiseInChild } from "./pglite_init.ts";
import { type Lane, LaneQueue } from "./lanes.ts";
import { PGLITE_START_PARAMS } from "./pglite_params.ts";
import type { Sql, Store } from "./types.ts";
import { USER_SETTINGS_SQL, userClaims } from "./user_settings.ts";

/** How long background calls may hold the event loop before they give it a turn. */
const BACKGROUND_SLICE_MS = 5;

/**
 * Opens PGlite in `dataDir` (created if missing), in memory when absent, or from a dump. A
 * directory is locked first: a second process on it gets DataDirInUse (lib/platform/store/dir_lock.ts).
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
  const lanes = new LaneQueue();
  // No autovacuum in PGlite: the store analyzes changed tables itself (./pglite_analyze.ts), as
  // one background-lane task at a time, so no caller waits for it and no backlog of looks grows.
  const analyze = autoAnalyze(db);
  let looking = false;
  const after = <T>(result: T): T => {
    if (!looking) {
      looking = true;
      lanes.run("background", analyze).finally(() => looking = false);
    }
    return result;
  };
  // PGlite's statements settle in microtasks, so a transaction's statements, and the calls
  // queued behind it, would hold the event loop as one piece: a history import's batch took
  // 100-160 ms of it. Background work gives the event loop a turn between two statements once
  // it has held it for BACKGROUND_SLICE_MS; a person's calls are short and never wait for one.
  const backgroundTurn = everySlice(BACKGROUND_SLICE_MS);
  const pace = (lane: Lane) => lane === "background" ? backgroundTurn() : undefined;
  const wrap = (tx: Transaction, lane: Lane): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      await pace(lane);
      return (await tx.query<T>(text, params)).rows;
    },
    async exec(script: string) {
      stats.queries++;
      await pace(lane);
      await tx.exec(script);
    },
  });
  // PGlite runs one statement at a time: a call waits in its lane (./lanes.ts) for its turn. A
  // call given up on never starts, and a transaction given up on midway rolls back: its client
  // was told 503, so nothing may commit.
  const bounded = <T>(lane: Lane, fn: (guard: () => void) => Promise<T>): Promise<T> => {
    let abandoned = false;
    const guard = () => {
      if (abandoned) throw storeUnavailable();
    };
    return storeDeadline(
      lanes.run(lane, async () => {
        await pace(lane);
        guard();
        return await fn(guard);
      }),
      timeoutMs,
      () => abandoned = true,
    ).then(after);
  };
  const transaction = <T>(lane: Lane, fn: (tx: Transaction) => Promise<T>): Promise<T> =>
    bounded(lane, (guard) =>
      db.transaction(async (tx) => {
        const result = await fn(tx);
        guard();
        return result;
      }));
  const calls = (lane: Lane): Omit<Store, "kind" | "stats" | "close" | "background"> => ({
    query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return bounded(lane, async () => (await db.query<T>(text, params)).rows);
    },
    transaction: (fn) => transaction(lane, (tx) => fn(wrap(tx, lane))),
    asUser: (userId, fn) =>
      transaction(lane, async (tx) => {
        await tx.query(USER_SETTINGS_SQL, [userClaims(userId)]);
        return await fn(wrap(tx, lane));
      }),
    // Migrations may take longer than a request's bound; they run once, at start.
    exec: (script) => lanes.run(lane, () => db.exec(script).then(() => {})),
  });
  const close = async () => {
    try {
      await db.close();
    } finally {
      lock?.release();
    }
  };
  const background: Store = { kind: "embedded", stats, ...calls("background"), close };
  return {
    kind: "embedded",
    stats,
    ...calls("interactive"),
    background,
    dump: () => db.dumpDataDir("none"),
    close,
  };
}
