/**
 * Stores for tests: a migrated embedded store loaded from a template made once and kept on disk
 * (initdb and the migrations take seconds; loading the dump well under one), or the PostgreSQL
 * server named by TEST_DATABASE_URL. Under `deno task test` (scripts/test.ts, files in parallel)
 * each test file gets a PostgreSQL database of its own, copied from a migrated template database;
 * run alone, a file uses TEST_DATABASE_URL's database itself (docs/testing.md).
 */
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { openPgliteStore } from "@/lib/platform/store/pglite.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import {
  pgliteTemplatePath,
  postgresTemplateName,
  TEST_RUN_ID,
  withDatabase,
} from "./store_templates.ts";

/** The engines a store suite runs against: always the embedded one, PostgreSQL when configured. */
export type Engine = "embedded" | "postgres";

/** The PostgreSQL server of the test run, if any (its database is the run's base). */
export const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** The engines available in this run. */
export const ENGINES: Engine[] = TEST_DATABASE_URL ? ["embedded", "postgres"] : ["embedded"];

let template: Promise<Blob> | undefined;
let fileDatabase: Promise<string> | undefined;

/** The migrated embedded template: built once, or read from where a run (or an earlier one) kept it. */
export function embeddedTemplate(): Promise<Blob> {
  return template ??= readTemplate();
}

async function readTemplate(): Promise<Blob> {
  const path = await pgliteTemplatePath();
  try {
    return new Blob([await Deno.readFile(path)]);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const store = await openPgliteStore();
  let dump: Blob;
  try {
    await migrate(store, await readMigrations());
    dump = await store.dump();
  } finally {
    await store.close();
  }
  // Written beside and renamed, so a file running in parallel never reads half a template.
  const partial = `${path}.${crypto.randomUUID()}.partial`;
  await Deno.writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
  await Deno.rename(partial, path);
  return dump;
}

async function createFileDatabase(serverUrl: string, runId: string): Promise<string> {
  const template = postgresTemplateName(serverUrl, runId);
  const name = `${template}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = openPostgresStore(serverUrl, { max: 1 });
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.close();
  }
  return withDatabase(serverUrl, name);
}

/**
 * The PostgreSQL database this test file uses: its own, copied from the run's migrated template,
 * under `deno task test`; TEST_DATABASE_URL's own database (migrated once) otherwise.
 */
export function testDatabaseUrl(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  return fileDatabase ??= TEST_RUN_ID
    ? createFileDatabase(TEST_DATABASE_URL, TEST_RUN_ID)
    : (async () => {
      const migrator = openPostgresStore(TEST_DATABASE_URL, { max: 1 });
      try {
        await migrate(migrator, await readMigrations());
      } finally {
        await migrator.close();
      }
      return TEST_DATABASE_URL;
    })();
}

/** A migrated store of `engine`, closed by `await using`. */
export async function testStore(engine: Engine = "embedded"): Promise<Store & AsyncDisposable> {
  const store = engine === "postgres"
    ? openPostgresStore(await testDatabaseUrl(), { max: 10 })
    : await openPgliteStore({ loadDataDir: await embeddedTemplate() });
  return Object.assign(store, { [Symbol.asyncDispose]: () => store.close() });
}
