/**
 * The migrated templates a test run copies its stores from (docs/testing.md): the embedded
 * store's dump, kept on disk under a name made of the migrations' content, PGlite's version and
 * its start parameters, so a run builds it at most once and a changed migration builds a new one;
 * and, under `deno task test`, a PostgreSQL template database each test file copies its own from.
 */
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";

/** The id `deno task test` gives its run (scripts/test.ts); unset when a file runs alone. */
export const TEST_RUN_ID = Deno.env.get("TEST_RUN_ID") || undefined;

const ROOT = new URL("../../", import.meta.url);

async function sha256(parts: string[]): Promise<string> {
  const bytes = new TextEncoder().encode(parts.join("\u0000"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Where the embedded template of today's migrations is (or will be) kept. */
export async function pgliteTemplatePath(): Promise<string> {
  const migrations = await readMigrations();
  const key = await sha256([
    JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).imports["@electric-sql/pglite"],
    await Deno.readTextFile(new URL("lib/platform/store/pglite_params.ts", ROOT)),
    ...migrations.flatMap((m) => [m.version, m.name, m.sql]),
  ]);
  const dir = Deno.env.get("TEST_TEMPLATE_DIR") ||
    `${Deno.env.get("TMPDIR") || "/tmp"}/movies-test-templates`;
  await Deno.mkdir(dir, { recursive: true });
  return `${dir}/pglite-${key}.tar`;
}

/** The run's PostgreSQL template database; each file's own database is named after it. */
export function postgresTemplateName(serverUrl: string, runId: string): string {
  const base = new URL(serverUrl).pathname.slice(1) || "postgres";
  return `${base.slice(0, 30)}_run${runId}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
}

/** `serverUrl` with another database name. */
export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Creates and migrates the run's template database (scripts/test.ts, before the files run). */
export async function preparePostgresTemplate(serverUrl: string, runId: string): Promise<void> {
  const name = postgresTemplateName(serverUrl, runId);
  const admin = openPostgresStore(serverUrl, { max: 1 });
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.close();
  }
  const migrator = openPostgresStore(withDatabase(serverUrl, name), { max: 1 });
  try {
    await migrate(migrator, await readMigrations());
  } finally {
    await migrator.close();
  }
}

/** Drops the run's template and every file's database copied from it; returns how many. */
export async function dropRunDatabases(serverUrl: string, runId: string): Promise<number> {
  const prefix = postgresTemplateName(serverUrl, runId);
  // A forced drop of a large copy on a busy server takes longer than a request's 5 s deadline.
  const admin = openPostgresStore(serverUrl, { max: 1, timeoutMs: 120_000 });
  try {
    const rows = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2
        order by datname = $1`,
      [prefix, `${prefix}\\_%`],
    );
    // Copies first: the template cannot be dropped while a copy is being made from it.
    for (const { datname } of rows) {
      await admin.query(`drop database if exists ${datname} with (force)`);
    }
    return rows.length;
  } finally {
    await admin.close();
  }
}
