/**
 * The rule that keeps DELETE /api/account complete as tables are added: public.delete_user_rows
 * finds a user's rows through the foreign keys to auth.users, so every table in `public` that
 * holds a user id must reference auth.users(id), and every table hanging off such a table must
 * cascade. A new table that breaks the rule fails here, naming itself, before it ships.
 */
import assert from "node:assert/strict";
import { testStore } from "./helpers/store.ts";

Deno.test("every public table with a user id column references auth.users, so account deletion finds it", async () => {
  await using store = await testStore();
  const unlinked = await store.query<{ place: string }>(
    `select c.table_name || '.' || c.column_name as place
     from information_schema.columns c
     join information_schema.tables t
       on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and c.column_name ~ '(^|_)user(_id)?$|^owner(_id)?$'
       and not exists (
         select 1 from pg_catalog.pg_constraint k
         join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         where k.contype = 'f' and k.confrelid = 'auth.users'::regclass
           and k.conrelid = format('public.%I', c.table_name)::regclass
           and a.attname = c.column_name
       )`,
  );
  assert.deepEqual(unlinked.map((r) => r.place), [], "add `references auth.users (id)`");
});

Deno.test("every foreign key to a table of user rows cascades, so deleting those rows cannot fail", async () => {
  await using store = await testStore();
  const blocking = await store.query<{ name: string }>(
    `with user_tables as (
       select k.conrelid as rel from pg_catalog.pg_constraint k
       where k.contype = 'f' and k.confrelid = 'auth.users'::regclass
     )
     select k.conrelid::regclass::text || ' (' || k.conname || ')' as name
     from pg_catalog.pg_constraint k
     join pg_catalog.pg_namespace n on n.oid = (select relnamespace from pg_catalog.pg_class where oid = k.conrelid)
     where k.contype = 'f' and n.nspname = 'public'
       and k.confrelid in (select rel from user_tables)
       and k.confdeltype <> 'c'`,
  );
  assert.deepEqual(blocking.map((r) => r.name), [], "add `on delete cascade`");
});

Deno.test("public.delete_user_rows is the server's alone: not executable by anon or authenticated", async () => {
  await using store = await testStore();
  const rows = await store.query<{ role: string; can: boolean }>(
    `select r.role, has_function_privilege(r.role, 'public.delete_user_rows(uuid)', 'execute') as can
     from (values ('anon'), ('authenticated')) as r(role)`,
  );
  assert.deepEqual(rows.map((r) => [r.role, r.can]), [["anon", false], ["authenticated", false]]);
});
