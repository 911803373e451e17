/**
 * DELETE /api/account (docs/identity.md): the user and every row of theirs go in one
 * transaction, on both engines; the token is 401 at once; Supabase mode deletes the user
 * through the admin API.
 */
import assert from "node:assert/strict";
import { resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import type { Sql } from "../lib/platform/store/mod.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { startFakeSupabase } from "./helpers/fake_supabase.ts";
import { ENGINES } from "./helpers/store.ts";
import { consumeQuota, quotaStatus } from "../lib/recommend/quota.ts";

const JSON_V = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
const CONFIRM = JSON.stringify({ confirm: "delete my account" });
const PASSWORD = "popcorn-matinee-42";

/** Every column of every table that names a user, found in the catalog, with its count for `id`. */
async function rowsOf(sql: Sql, id: string): Promise<Record<string, number>> {
  const columns = await sql.query<{ schema: string; table: string; column: string }>(
    `select c.table_schema as schema, c.table_name as table, c.column_name as column
     from information_schema.columns c
     join information_schema.tables t
       on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema in ('public', 'auth') and t.table_type = 'BASE TABLE'
       and (c.column_name = 'user_id' or (c.table_name = 'users' and c.column_name = 'id'))`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, table, column } of columns) {
    const [row] = await sql.query<{ n: number }>(
      `select count(*)::int as n from "${schema}"."${table}" where "${column}"::text = $1`,
      [id],
    );
    counts[`${schema}.${table}`] = row.n;
  }
  return counts;
}

async function signUpAndIn(t: TestApp, email: string) {
  const created = await t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert.equal(created.status, 201);
  const { user } = await created.json();
  const signIn = async () =>
    await (await t.request("/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: JSON_V,
      body: JSON.stringify({ email, password: PASSWORD }),
    })).json();
  const session = await signIn();
  await signIn(); // a second device
  return { id: String(user.id), headers: { authorization: `Bearer ${session.access_token}` } };
}

async function fill(t: TestApp, user: { id: string; headers: Record<string, string> }) {
  for (const [path, catalogId] of [["/api/watched", 550], ["/api/mylist", 13]] as const) {
    const res = await t.request(path, {
      method: "POST",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId }),
    });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
  await t.store.query(
    `insert into public.recommendations (user_id, catalog_ids, watched_hash, expires_at)
     values ($1, '{13}', 'h', now() + interval '1 day')`,
    [user.id],
  );
  await consumeQuota(t.kv, user.id, { clock: t.clock });
}

/** Today's generations counted for `id` (the quota lives in KV, keyed by user id). */
async function quotaUsed(t: TestApp, id: string): Promise<number> {
  return (await quotaStatus(t.kv, id, { clock: t.clock })).used;
}

function del(t: TestApp, headers: Record<string, string>, body: string | undefined = CONFIRM) {
  return t.request("/api/account", {
    method: "DELETE",
    headers: { ...headers, "content-type": "application/json" },
    body,
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] DELETE /api/account deletes the user and every row of theirs; the token is 401 at once`, async () => {
    await using t = await testApp({ engine });
    const email = `leaving-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const user = await signUpAndIn(t, email);
    const stays = await signUpAndIn(t, `staying-${crypto.randomUUID().slice(0, 8)}@example.com`);
    await fill(t, user);
    await fill(t, stays);
    await (await t.request("/auth/v1/recover", {
      method: "POST",
      headers: JSON_V,
      body: JSON.stringify({ email }),
    })).body?.cancel();
    await resetMailsSettled(t.deps);

    const before = await rowsOf(t.store, user.id);
    for (
      const table of [
        "auth.users",
        "auth.sessions",
        "auth.refresh_tokens",
        "public.user_watched_movies",
        "public.user_my_list",
        "public.recommendations",
        "public.recovery_tokens",
      ]
    ) {
      assert.ok(before[table] > 0, `${table} had rows of the user: ${JSON.stringify(before)}`);
    }

    assert.equal(await quotaUsed(t, user.id), 1);

    const res = await del(t, user.headers);
    assert.equal(res.status, 204);
    assert.equal(await res.text(), "");
    assert.equal(await quotaUsed(t, user.id), 0, "the daily quota entry in KV");
    assert.equal(await quotaUsed(t, stays.id), 1);
    const after = await rowsOf(t.store, user.id);
    assert.ok(Object.values(after).every((n) => n === 0), JSON.stringify(after));
    const others = await rowsOf(t.store, stays.id);
    assert.ok(others["public.user_watched_movies"] > 0 && others["auth.users"] === 1);

    for (const path of ["/api/watched", "/api/recommend/quota", "/auth/v1/user"]) {
      const gone = await t.request(path, { headers: user.headers });
      assert.ok(gone.status === 401 || gone.status === 403, `${path}: ${gone.status}`);
      await gone.body?.cancel();
    }
    const again = await del(t, user.headers);
    assert.equal(again.status, 401);
    await again.body?.cancel();
    const signIn = await t.request("/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: JSON_V,
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(signIn.status, 400);
    assert.equal((await signIn.json()).code, "invalid_credentials");
  });
}

Deno.test("DELETE /api/account without the exact confirmation answers 400 confirmation_required and deletes nothing", async () => {
  await using t = await testApp();
  const user = await signUpAndIn(t, "careful@example.com");
  const cases: [string, string][] = [
    ["", "confirmation_required"],
    ["{}", "confirmation_required"],
    [JSON.stringify({ confirm: "Delete my account" }), "confirmation_required"],
    [JSON.stringify({ confirm: "delete my account " }), "confirmation_required"],
    [JSON.stringify({ confirm: true }), "confirmation_required"],
    ["delete my account", "confirmation_required"],
  ];
  for (const [body, code] of cases) {
    const res = await del(t, user.headers, body);
    assert.equal(res.status, 400, String(body));
    assert.equal((await res.json()).code, code, String(body));
  }
  const none = await t.request("/api/account", { method: "DELETE", body: CONFIRM });
  assert.equal(none.status, 401);
  await none.body?.cancel();
  assert.equal((await rowsOf(t.store, user.id))["auth.users"], 1);
  const wrongMethod = await t.request("/api/account", { headers: user.headers });
  assert.equal(wrongMethod.status, 405);
  await wrongMethod.body?.cancel();
});

Deno.test("Supabase mode: DELETE /api/account deletes the rows, then the user through the admin API; the token is 401", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({
    clock,
    env: {
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: fake.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey,
    },
  });
  const user = { id: crypto.randomUUID(), email: "sb-leaving@example.com" };
  fake.users.set(user.id, user);
  // The project's database: its auth.users has the user the list rows reference.
  await t.store.query(
    "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
    [user.id, user.email],
  );
  const headers = { authorization: `Bearer ${await fake.sign(user)}` };
  await fill(t, { id: user.id, headers });

  const res = await del(t, headers);
  assert.equal(res.status, 204);
  await res.body?.cancel();
  const call = fake.requests.find((r) => r.method === "DELETE");
  assert.equal(call?.path, `/auth/v1/admin/users/${user.id}`);
  assert.equal(call?.headers.apikey, fake.serviceRoleKey);
  assert.equal(fake.users.has(user.id), false);
  const after = await rowsOf(t.store, user.id);
  for (const [table, n] of Object.entries(after)) {
    if (table !== "auth.users") assert.equal(n, 0, table);
  }
  const gone = await t.request("/api/watched", { headers });
  assert.equal(gone.status, 401);
  await gone.body?.cancel();

  // Supabase failing: 503, and the rows are gone but the user can try again.
  const other = { id: crypto.randomUUID(), email: "sb-retry@example.com" };
  fake.users.set(other.id, other);
  const otherHeaders = { authorization: `Bearer ${await fake.sign(other)}` };
  fake.failWith = 503;
  const failed = await del(t, otherHeaders);
  assert.equal(failed.status, 503);
  await failed.body?.cancel();
  fake.failWith = null;
  const retried = await del(t, otherHeaders);
  assert.equal(retried.status, 204);
  await retried.body?.cancel();
});
