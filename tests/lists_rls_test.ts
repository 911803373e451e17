/**
 * Row-level security of the lists, straight in the store (what Supabase's Data API would give
 * a signed-in user): the owner alone sees and changes their lists and items; the shared read
 * is one security-definer function that anon cannot run.
 */
import assert from "node:assert/strict";
import { ENGINES, testStore } from "./helpers/store.ts";

async function user(store: Awaited<ReturnType<typeof testStore>>): Promise<string> {
  const id = crypto.randomUUID();
  await store.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [id, `rls-${id.slice(0, 8)}@example.test`],
  );
  return id;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] under row-level security another user neither sees nor changes a list or its items`, async () => {
    await using store = await testStore(engine);
    const owner = await user(store);
    const other = await user(store);
    const listId = await store.asUser(owner, async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `insert into public.user_lists (user_id, name) values ($1, 'Mine') returning id::text as id`,
        [owner],
      );
      await tx.query(
        `insert into public.user_list_items (list_id, catalog_id, position) values ($1, 7, 1)`,
        [row.id],
      );
      return row.id;
    });
    await store.asUser(other, async (tx) => {
      assert.deepEqual(
        await tx.query(`select id from public.user_lists where id = $1`, [listId]),
        [],
      );
      assert.deepEqual(
        await tx.query(`select catalog_id from public.user_list_items where list_id = $1`, [
          listId,
        ]),
        [],
      );
      const changed = await tx.query(
        `update public.user_list_items set position = 9 where list_id = $1 returning 1`,
        [listId],
      );
      assert.equal(changed.length, 0);
    });
    await assert.rejects(
      store.asUser(other, (tx) =>
        tx.query(
          `insert into public.user_list_items (list_id, catalog_id, position) values ($1, 8, 2)`,
          [listId],
        )),
    );
    const [row] = await store.query<{ n: number }>(
      `select count(*)::int as n from public.user_list_items where list_id = $1`,
      [listId],
    );
    assert.equal(row.n, 1);
  });
}

Deno.test("public.shared_list is security definer with an empty search_path, and anon cannot run it", async () => {
  await using store = await testStore();
  const [fn] = await store.query<{ definer: boolean; config: string[] }>(
    `select prosecdef as definer, proconfig as config from pg_catalog.pg_proc
     where oid = 'public.shared_list(text, integer, integer)'::regprocedure`,
  );
  assert.equal(fn.definer, true);
  assert.ok(fn.config.some((c) => c.replace(/"/g, "") === "search_path="), String(fn.config));
  const rows = await store.query<{ role: string; can: boolean }>(
    `select r.role, has_function_privilege(r.role, 'public.shared_list(text, integer, integer)',
       'execute') as can from (values ('anon'), ('public')) as r(role)
     where r.role <> 'public'`,
  );
  assert.deepEqual(rows.map((r) => [r.role, r.can]), [["anon", false]]);
});
