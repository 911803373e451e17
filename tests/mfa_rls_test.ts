/**
 * Two-factor codes guard the data under row-level security too (docs/identity.md): what a client
 * talking to the database directly (Supabase's Data API with a user's token) gets. With a verified
 * factor, an aal1 token's claims see and write none of the user's rows; aal2 does, as does aal1
 * for a user without a factor. Every user-row policy has its restrictive aal2 twin.
 */
import assert from "node:assert/strict";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

type TestStore = Awaited<ReturnType<typeof testStore>>;

async function user(store: TestStore, options: { factor?: boolean } = {}): Promise<string> {
  const id = crypto.randomUUID();
  await store.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [id, `aal-${id.slice(0, 8)}@example.test`],
  );
  await store.query(`insert into public.user_lists (user_id, name) values ($1, 'Mine')`, [id]);
  if (options.factor) {
    await store.query(
      `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at, updated_at)
       values ($1, $2, 'totp', 'verified', now(), now())`,
      [crypto.randomUUID(), id],
    );
  }
  return id;
}

/** Runs `fn` as PostgREST would for a token of `userId` at `aal`. */
function asToken<T>(
  store: TestStore,
  token: { userId: string; aal: "aal1" | "aal2" },
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  return store.transaction(async (tx) => {
    const claims = { sub: token.userId, role: "authenticated", aal: token.aal };
    await tx.query(
      "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)",
      [JSON.stringify(claims)],
    );
    return await fn(tx);
  });
}

const names = (tx: Sql) => tx.query<{ name: string }>(`select name from public.user_lists`);
const add = (tx: Sql, userId: string) =>
  tx.query(`insert into public.user_lists (user_id, name) values ($1, 'More')`, [userId]);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] under row-level security an aal1 token of a user with a verified factor sees and writes none of their rows; aal2 does`, async () => {
    await using store = await testStore(engine);
    const guarded = await user(store, { factor: true });
    const plain = await user(store);
    assert.deepEqual(await asToken(store, { userId: guarded, aal: "aal1" }, names), []);
    await assert.rejects(
      asToken(store, { userId: guarded, aal: "aal1" }, (tx) => add(tx, guarded)),
    );
    const renamed = await asToken(
      store,
      { userId: guarded, aal: "aal1" },
      (tx) => tx.query(`update public.user_lists set name = 'Taken' returning 1`),
    );
    assert.equal(renamed.length, 0);
    assert.deepEqual(await asToken(store, { userId: guarded, aal: "aal2" }, names), [{
      name: "Mine",
    }]);
    await asToken(store, { userId: guarded, aal: "aal2" }, (tx) => add(tx, guarded));
    // Without a factor, a password's token is enough.
    assert.deepEqual(await asToken(store, { userId: plain, aal: "aal1" }, names), [{
      name: "Mine",
    }]);
    // The app's own transactions run after its guard and pass.
    assert.equal((await store.asUser(guarded, names)).length, 2);
  });

  Deno.test(`[${engine}] every policy that gives authenticated a user's own rows has its restrictive aal2 twin`, async () => {
    await using store = await testStore(engine);
    const policies = await store.query<
      { table: string; name: string; cmd: string; permissive: string; rule: string }
    >(
      `select tablename as table, policyname as name, cmd, permissive,
              coalesce(qual, '') || ' ' || coalesce(with_check, '') as rule
       from pg_catalog.pg_policies
       where schemaname = 'public' and 'authenticated'::name = any (roles)`,
    );
    const owned = policies.filter((p) =>
      p.permissive === "PERMISSIVE" && /auth\.uid\(\)/.test(p.rule)
    );
    assert.ok(owned.length > 40, `${owned.length} user-row policies`);
    const missing = owned.filter((p) =>
      !policies.some((r) =>
        r.permissive === "RESTRICTIVE" && r.table === p.table && r.cmd === p.cmd &&
        r.name === `${p.name}_aal2` && /aal_satisfied\(\)/.test(r.rule)
      )
    ).map((p) => `${p.table}.${p.name}`);
    assert.deepEqual(missing, []);
  });
}
