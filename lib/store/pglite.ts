/** The embedded store: PGlite (Postgres compiled to WASM), persisted in a directory. */
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { Sql, Store } from "./types.ts";
import { USER_SETTINGS_SQL, userClaims } from "./user_settings.ts";

/** Opens PGlite in `dataDir` (created if missing), in memory when absent, or from a dump. */
export async function openPgliteStore(
  options: { dataDir?: string; loadDataDir?: Blob | File } = {},
): Promise<Store & { dump(): Promise<Blob> }> {
  if (options.dataDir) await Deno.mkdir(options.dataDir, { recursive: true });
  const db = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const stats = { queries: 0 };
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
  return {
    kind: "embedded",
    stats,
    async query<T>(text: string, params: unknown[] = []) {
      stats.queries++;
      return (await db.query<T>(text, params)).rows;
    },
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    asUser: (userId, fn) =>
      db.transaction(async (tx) => {
        await tx.query(USER_SETTINGS_SQL, [userClaims(userId)]);
        return await fn(wrap(tx));
      }),
    async exec(script) {
      await db.exec(script);
    },
    dump: () => db.dumpDataDir("none"),
    close: () => db.close(),
  };
}
