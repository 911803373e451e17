/**
 * Applies `supabase/migrations/*.sql` in file-name order, each in its own transaction, and
 * records them in `supabase_migrations.schema_migrations` (the table the Supabase CLI keeps,
 * so a database migrated by either tool is recognised by the other). An advisory lock makes
 * two instances starting at once take turns; a second start applies nothing.
 */
import { MIGRATIONS_LOCK_KEY } from "./advisory_locks.ts";
import type { Store } from "./types.ts";

/** A migration file: version is its timestamp prefix. */
export interface Migration {
  version: string;
  name: string;
  sql: string;
}

const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;

/** Reads the migrations of a directory, sorted by version. */
export async function readMigrations(
  dir: string | URL = new URL("../../../supabase/migrations/", import.meta.url),
): Promise<Migration[]> {
  const base = typeof dir === "string" ? dir.replace(/\/?$/, "/") : dir;
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const match = entry.isFile ? MIGRATION_FILE.exec(entry.name) : null;
    if (!match) continue;
    const sql = await Deno.readTextFile(
      typeof base === "string" ? base + entry.name : new URL(entry.name, base),
    );
    migrations.push({ version: match[1], name: match[2], sql });
  }
  return migrations.sort((a, b) => a.version.localeCompare(b.version));
}

/** Applies the pending migrations; returns the versions applied by this call. */
export async function migrate(store: Store, migrations: Migration[]): Promise<string[]> {
  const applied = await store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATIONS_LOCK_KEY]);
    await tx.exec(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key,
        statements text[],
        name text
      );`);
    const rows = await tx.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations",
    );
    return new Set(rows.map((r) => r.version));
  });
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    const ran = await store.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock($1)", [MIGRATIONS_LOCK_KEY]);
      // Another instance may have applied it while this one waited for the lock.
      const seen = await tx.query(
        "select 1 from supabase_migrations.schema_migrations where version = $1",
        [migration.version],
      );
      if (seen.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query(
        "insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)",
        [migration.version, migration.name, [migration.sql]],
      );
      return true;
    });
    if (ran) done.push(migration.version);
  }
  return done;
}
