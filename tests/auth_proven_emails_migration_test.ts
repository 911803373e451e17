/**
 * supabase/migrations/20261206070100_proven_emails.sql on a database that already has accounts:
 * a password account's confirmation, set at signup before addresses had to be proven, is cleared;
 * an account the identity provider made with a verified email keeps its own (docs/identity.md,
 * "Proven addresses"). On both stores.
 */
import assert from "node:assert/strict";
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import { openPgliteStore } from "@/lib/platform/store/pglite.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { type Engine, ENGINES, TEST_DATABASE_URL } from "./helpers/store.ts";
import { withDatabase } from "./helpers/store_templates.ts";

const PROVEN_EMAILS = "20261206070100";

/** An empty store of `engine` (a database of its own on PostgreSQL, dropped after). */
async function emptyStore(engine: Engine): Promise<Store & AsyncDisposable> {
  if (engine === "embedded") {
    const store = await openPgliteStore();
    return Object.assign(store, { [Symbol.asyncDispose]: () => store.close() });
  }
  const name = `movies_proven_${crypto.randomUUID().slice(0, 8)}`;
  const admin = openPostgresStore(TEST_DATABASE_URL!, { max: 1 });
  await admin.exec(`create database ${name}`);
  const store = openPostgresStore(withDatabase(TEST_DATABASE_URL!, name), { max: 2 });
  return Object.assign(store, {
    async [Symbol.asyncDispose]() {
      await store.close();
      await admin.exec(`drop database ${name}`);
      await admin.close();
    },
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the proven-emails migration clears the unproven confirmation of password accounts and keeps the identity provider's`, async () => {
    await using store = await emptyStore(engine);
    const migrations = await readMigrations();
    await migrate(store, migrations.filter((m) => m.version < PROVEN_EMAILS));
    const [password, provider] = [crypto.randomUUID(), crypto.randomUUID()];
    await store.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', 'typed@example.com', '$2a$10$hash',
         now(), '{"provider":"email","providers":["email"]}', now(), now()),
       ($2, 'authenticated', 'authenticated', 'verified@example.com', null,
         now(), '{"provider":"oidc","providers":["oidc"]}', now(), now())`,
      [password, provider],
    );
    assert.ok((await migrate(store, migrations)).includes(PROVEN_EMAILS));
    const rows = await store.query<{ id: string; confirmed: boolean }>(
      `select id::text as id, email_confirmed_at is not null as confirmed from auth.users`,
    );
    const confirmed = Object.fromEntries(rows.map((r) => [r.id, r.confirmed]));
    assert.deepEqual(confirmed, { [password]: false, [provider]: true });
  });
}
