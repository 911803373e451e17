import assert from "node:assert/strict";
import { createApp } from "../app.ts";
import { migrate, readMigrations } from "../lib/platform/store/migrate.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { openPgliteStore } from "../lib/platform/store/pglite.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import { testApp } from "./helpers/app.ts";
import { ENGINES, TEST_DATABASE_URL, testStore } from "./helpers/store.ts";

async function addUser(store: Store): Promise<string> {
  const id = crypto.randomUUID();
  await store.query("insert into auth.users (id, email) values ($1, $2)", [
    id,
    `${id}@example.test`,
  ]);
  return id;
}

async function myList(store: Store, userId: string): Promise<number[]> {
  const rows = await store.query<{ catalog_ids: number[] }>(
    "select catalog_ids from public.user_my_list where user_id = $1",
    [userId],
  );
  return rows[0]?.catalog_ids ?? [];
}

Deno.test("migrations apply on a new embedded store and a second start applies nothing", async () => {
  const store = await openPgliteStore();
  try {
    const migrations = await readMigrations();
    assert.ok(migrations.length >= 3);
    const first = await migrate(store, migrations);
    assert.deepEqual(first, migrations.map((m) => m.version));
    assert.deepEqual(await migrate(store, migrations), []);
    const tables = await store.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = 'public' order by 1`,
    );
    for (
      const name of [
        "catalog_imports",
        "movies",
        "recommendations",
        "user_my_list",
        "user_watched_movies",
      ]
    ) {
      assert.ok(tables.some((t) => t.name === name), name);
    }
  } finally {
    await store.close();
  }
});

Deno.test("migration file names are timestamped, lower case and sorted", async () => {
  for await (const entry of Deno.readDir(new URL("../supabase/migrations/", import.meta.url))) {
    assert.match(entry.name, /^\d{14}_[a-z0-9_]+\.sql$/);
  }
});

Deno.test({
  name: "two instances starting at once against one PostgreSQL both come up healthy",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const admin = openPostgresStore(TEST_DATABASE_URL!, { max: 1 });
    const dbName = `movies_race_${crypto.randomUUID().slice(0, 8)}`;
    await admin.query(`create database ${dbName}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    const a = openPostgresStore(url.href, { max: 2 });
    const b = openPostgresStore(url.href, { max: 2 });
    try {
      const migrations = await readMigrations();
      const [ranA, ranB] = await Promise.all([migrate(a, migrations), migrate(b, migrations)]);
      assert.deepEqual([...ranA, ...ranB].sort(), migrations.map((m) => m.version));
      assert.deepEqual(await migrate(a, migrations), []);
      for (const store of [a, b]) {
        await using t = await testApp({ store });
        const res = await createApp(t.deps).request("/api/health");
        assert.equal(res.status, 200);
      }
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database ${dbName} with (force)`);
      await admin.close();
    }
  },
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] append_my_list under 50 concurrent calls with distinct ids loses none`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    const ids = Array.from({ length: 50 }, (_, i) => 1000 + i);
    await Promise.all(
      ids.map((id) =>
        store.asUser(user, (tx) => tx.query("select public.append_my_list($1)", [id]))
      ),
    );
    assert.deepEqual([...await myList(store, user)].sort((x, y) => x - y), ids);
  });

  Deno.test(`[${engine}] append_my_list under 50 concurrent calls with one id stores it once`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    await Promise.all(
      Array.from(
        { length: 50 },
        () => store.asUser(user, (tx) => tx.query("select public.append_my_list($1)", [77])),
      ),
    );
    assert.deepEqual(await myList(store, user), [77]);
  });

  Deno.test(`[${engine}] remove_my_list of an absent id is a no-op and keeps the order`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    await store.asUser(user, (tx) => tx.query("select public.remove_my_list($1)", [5]));
    assert.deepEqual(await myList(store, user), []);
    for (const id of [3, 1, 2]) {
      await store.asUser(user, (tx) => tx.query("select public.append_my_list($1)", [id]));
    }
    await store.asUser(user, (tx) => tx.query("select public.remove_my_list($1)", [9]));
    assert.deepEqual(await myList(store, user), [3, 1, 2]);
    await store.asUser(user, (tx) => tx.query("select public.remove_my_list($1)", [1]));
    assert.deepEqual(await myList(store, user), [3, 2]);
  });

  Deno.test(`[${engine}] a user's claims never touch another user's rows`, async () => {
    await using store = await testStore(engine);
    const alice = await addUser(store);
    const bob = await addUser(store);
    await store.asUser(alice, (tx) => tx.query("select public.append_my_list($1)", [10]));
    await store.asUser(
      alice,
      (tx) =>
        tx.query("insert into public.user_watched_movies (user_id, catalog_id) values ($1, 20)", [
          alice,
        ]),
    );
    // Bob sees none of Alice's rows, and cannot write, change or delete them.
    const seen = await store.asUser(bob, (tx) =>
      tx.query(
        `select (select count(*)::int from public.user_my_list) as lists,
                (select count(*)::int from public.user_watched_movies) as watched`,
      ));
    assert.deepEqual(seen, [{ lists: 0, watched: 0 }]);
    await assert.rejects(() =>
      store.asUser(
        bob,
        (tx) =>
          tx.query("insert into public.user_watched_movies (user_id, catalog_id) values ($1, 30)", [
            alice,
          ]),
      )
    );
    await store.asUser(
      bob,
      (tx) => tx.query("delete from public.user_watched_movies where user_id = $1", [alice]),
    );
    await store.asUser(
      bob,
      (tx) =>
        tx.query("update public.user_my_list set catalog_ids = '{}' where user_id = $1", [alice]),
    );
    await store.asUser(bob, (tx) => tx.query("select public.append_my_list($1)", [99]));
    assert.deepEqual(await myList(store, alice), [10]);
    assert.deepEqual(await myList(store, bob), [99]);
    const aliceWatched = await store.query(
      "select catalog_id from public.user_watched_movies where user_id = $1",
      [alice],
    );
    assert.deepEqual(aliceWatched, [{ catalog_id: 20 }]);
  });

  Deno.test(`[${engine}] auth_email_exists is not callable by anon or authenticated`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    const email = `${user}@example.test`;
    await assert.rejects(
      () => store.asUser(user, (tx) => tx.query("select public.auth_email_exists($1)", [email])),
      /permission denied/,
    );
    await assert.rejects(
      () =>
        store.transaction(async (tx) => {
          await tx.query("set local role anon");
          return await tx.query("select public.auth_email_exists($1)", [email]);
        }),
      /permission denied/,
    );
    const [row] = await store.query<{ exists: boolean }>(
      "select public.auth_email_exists($1) as exists",
      [email.toUpperCase()],
    );
    assert.equal(row.exists, true);
  });

  Deno.test(`[${engine}] append_my_list refuses a caller without a user and a non-positive id`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    await assert.rejects(() => store.query("select public.append_my_list(5)"));
    await assert.rejects(() =>
      store.asUser(user, (tx) => tx.query("select public.append_my_list(0)"))
    );
    assert.deepEqual(await myList(store, user), []);
  });
}
