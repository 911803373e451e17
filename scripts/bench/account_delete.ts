/**
 * Deleting an account with a long history (docs/identity.md, "Accounts"): two users of 10,000 films, each
 * film with a viewing, on each store; one goes by `public.delete_user_rows` (the kept figures'
 * triggers skip its rows, the rows other tables point at go last), the other by the same
 * deletes as that function made before (tables in catalog order, every trigger doing its
 * upkeep), in the same run. Reported as the ratio of the two times (the store's bound is 5 s).
 */
import { testApp } from "@/tests/helpers/app.ts";
import { type Engine, ENGINES } from "@/tests/helpers/store.ts";
import { createUser } from "@/tests/helpers/users.ts";
import type { Store } from "@/lib/platform/store/mod.ts";

const FILMS = 10_000;
// Rows a seeding statement inserts: each statement's trigger work stays well inside the bound.
const SEED_ROWS = 500;

async function seed(store: Store, userId: string) {
  for (let from = 1; from <= FILMS; from += SEED_ROWS) {
    const to = Math.min(FILMS, from + SEED_ROWS - 1);
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at)
       select $1::uuid, g, timestamptz '2020-01-01' + g * interval '1 second'
         from generate_series($2::int, $3::int) g`,
      [userId, from, to],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, rating, source)
       select $1::uuid, g, date '2015-01-01' + g % 3000, 1 + g % 10, 'import'
         from generate_series($2::int, $3::int) g`,
      [userId, from, to],
    );
  }
}

// The deletion as it was: every table pointing at auth.users, in the catalog's order.
async function deleteAsBefore(store: Store, userId: string) {
  await store.transaction(async (tx) => {
    const tables = await tx.query<{ table_name: string; column_name: string }>(
      `select c.relname as table_name, a.attname as column_name
         from pg_catalog.pg_constraint as k
         join pg_catalog.pg_class as c on c.oid = k.conrelid
         join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
         join pg_catalog.pg_attribute as a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
        where k.contype = 'f' and k.confrelid = 'auth.users'::pg_catalog.regclass
          and pg_catalog.array_length(k.conkey, 1) = 1 and n.nspname = 'public'`,
    );
    // The old function's single statement took 9 s at 100,000 films: no statement timeout here.
    if (store.kind === "postgres") await tx.query("set local statement_timeout = 0");
    for (const t of tables) {
      await tx.query(`delete from public.${t.table_name} where ${t.column_name} = $1`, [userId]);
    }
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function one(engine: Engine) {
  await using t = await testApp({ engine, record: false });
  const now = await createUser(t.deps);
  const before = await createUser(t.deps);
  await seed(t.store, now.id);
  await seed(t.store, before.id);
  const deleted = await timed(async () => {
    const res = await t.request("/api/account", {
      method: "DELETE",
      headers: { ...now.headers, "content-type": "application/json" },
      body: JSON.stringify({ confirm: "delete my account" }),
    });
    if (res.status !== 204) throw new Error(`DELETE /api/account answered ${res.status}`);
  });
  const old = await timed(() => deleteAsBefore(t.store, before.id));
  console.log(
    `${engine}: ${FILMS.toLocaleString("en")} films with a viewing each: DELETE /api/account ` +
      `${deleted.toFixed(0)} ms, the deletes as before ${old.toFixed(0)} ms: ` +
      `${(deleted / old).toFixed(2)}x`,
  );
}

/** Prints, per store, both deletions' times and their ratio. */
export default async function bench(): Promise<void> {
  for (const engine of ENGINES) await one(engine);
}
