/**
 * supabase/migrations on a Supabase project's database: a fresh database gets the parts of
 * Supabase's own `auth` schema the migrations touch (tests/fixtures/supabase/auth_schema.sql,
 * owned by Supabase's admin roles), then the migrations run as a role that, like Supabase's
 * `postgres`, owns none of it. They must apply cleanly, leave Supabase's objects as they were,
 * and serve a Supabase user's lists under row-level security.
 */
import assert from "node:assert/strict";
import { migrate, readMigrations } from "../lib/platform/store/migrate.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import { TEST_DATABASE_URL } from "./helpers/store.ts";

const FIXTURE = new URL("./fixtures/supabase/auth_schema.sql", import.meta.url);

Deno.test({
  name: "supabase/migrations apply cleanly on top of Supabase's own auth schema, as a non-owner",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const suffix = crypto.randomUUID().slice(0, 8);
    const dbName = `movies_supabase_${suffix}`;
    const role = `movies_migrator_${suffix}`;
    const password = crypto.randomUUID();
    const server = openPostgresStore(TEST_DATABASE_URL!, { max: 1 });
    await server.exec(`create role ${role} login password '${password}' noinherit`);
    await server.exec(`create database ${dbName} owner ${role}`);
    const dbUrl = new URL(TEST_DATABASE_URL!);
    dbUrl.pathname = `/${dbName}`;
    const admin = openPostgresStore(dbUrl.href, { max: 1 });
    const asRole = new URL(dbUrl);
    asRole.username = role;
    asRole.password = password;
    let store: ReturnType<typeof openPostgresStore> | undefined;
    try {
      await admin.exec(await Deno.readTextFile(FIXTURE));
      // What Supabase's `postgres` may do: use auth, read and reference the users, read the
      // factors (what the aal2 policies' function reads), act as a user.
      await admin.exec(`
        grant usage on schema auth to ${role};
        grant select, references on auth.users, auth.sessions to ${role};
        grant select on auth.mfa_factors to ${role};
        grant authenticated, anon, service_role to ${role};
        alter schema public owner to ${role};`);
      const before = await admin.query<{ src: string }>(
        "select prosrc as src from pg_proc where oid = 'auth.uid()'::regprocedure",
      );

      store = openPostgresStore(asRole.href, { max: 2 });
      const migrations = await readMigrations();
      assert.deepEqual(await migrate(store, migrations), migrations.map((m) => m.version));
      assert.deepEqual(await migrate(store, migrations), []);

      // Supabase's own objects are as Supabase left them.
      const owners = await admin.query<{ name: string; owner: string }>(
        `select c.relname as name, pg_get_userbyid(c.relowner) as owner from pg_class c
         where c.relnamespace = 'auth'::regnamespace and c.relkind = 'r' order by 1`,
      );
      assert.deepEqual(owners.map((o) => o.owner), owners.map(() => "supabase_auth_admin"));
      const after = await admin.query<{ src: string }>(
        "select prosrc as src from pg_proc where oid = 'auth.uid()'::regprocedure",
      );
      assert.equal(after[0].src, before[0].src);
      const sessionColumns = await admin.query<{ name: string }>(
        `select attname as name from pg_attribute
         where attrelid = 'auth.sessions'::regclass and attnum > 0 and not attisdropped`,
      );
      assert.ok(!sessionColumns.some((c) => c.name === "token"), "auth.sessions was altered");

      // A user Supabase Auth created keeps their own list under row-level security.
      const [alice, bob] = [crypto.randomUUID(), crypto.randomUUID()];
      for (const [id, email] of [[alice, "alice@example.test"], [bob, "bob@example.test"]]) {
        await admin.query(
          "insert into auth.users (id, email, aud, role, created_at) values ($1, $2, 'authenticated', 'authenticated', now())",
          [id, email],
        );
      }
      await store.asUser(
        alice,
        (tx) =>
          tx.query(
            "insert into public.user_watched_movies (user_id, catalog_id) values ($1, 550)",
            [alice],
          ),
      );
      const own = await store.asUser(
        alice,
        (tx) =>
          tx.query<{ catalog_id: number }>("select catalog_id from public.user_watched_movies"),
      );
      assert.deepEqual(own.map((r) => Number(r.catalog_id)), [550]);
      const others = await store.asUser(
        bob,
        (tx) => tx.query("select catalog_id from public.user_watched_movies"),
      );
      assert.deepEqual(others, []);
    } finally {
      await store?.close();
      await admin.close();
      await server.exec(`drop database ${dbName} with (force)`);
      await server.exec(`drop role ${role}`);
      await server.close();
    }
  },
});
