/**
 * Stores for tests: a migrated embedded store loaded from a template made once per test run
 * (initdb and the migrations take seconds; loading the dump well under one), or the
 * PostgreSQL server named by TEST_DATABASE_URL.
 */
import { migrate, readMigrations } from "../../lib/platform/store/migrate.ts";
import type { Store } from "../../lib/platform/store/mod.ts";
import { openPgliteStore } from "../../lib/platform/store/pglite.ts";
import { openPostgresStore } from "../../lib/platform/store/postgres.ts";

/** The engines a store suite runs against: always the embedded one, PostgreSQL when configured. */
export type Engine = "embedded" | "postgres";

/** The PostgreSQL URL of the test run, if any. */
export const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** The engines available in this run. */
export const ENGINES: Engine[] = TEST_DATABASE_URL ? ["embedded", "postgres"] : ["embedded"];

let template: Promise<Blob> | undefined;
let pgMigrated: Promise<unknown> | undefined;

async function makeTemplate(): Promise<Blob> {
  const store = await openPgliteStore();
  try {
    await migrate(store, await readMigrations());
    return await store.dump();
  } finally {
    await store.close();
  }
}

/** A migrated store of `engine`, closed by `await using`. */
export async function testStore(engine: Engine = "embedded"): Promise<Store & AsyncDisposable> {
  let store: Store;
  if (engine === "postgres") {
    if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
    store = openPostgresStore(TEST_DATABASE_URL, { max: 10 });
    pgMigrated ??= (async () => {
      const migrator = openPostgresStore(TEST_DATABASE_URL, { max: 1 });
      try {
        await migrate(migrator, await readMigrations());
      } finally {
        await migrator.close();
      }
    })();
    await pgMigrated;
  } else {
    store = await openPgliteStore({ loadDataDir: await (template ??= makeTemplate()) });
  }
  return Object.assign(store, { [Symbol.asyncDispose]: () => store.close() });
}
