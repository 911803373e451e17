/**
 * An account's deletion skips the upkeep of its own kept figures (docs/identity.md, "Accounts"): the
 * triggers that keep the year in review and the watched counts pass over a deletion made only
 * of the leaving user's rows, since those figures go too. A statement that also takes another
 * user's rows is kept as ever, and the account leaves nothing behind.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { referenceStats } from "./helpers/diary_stats_reference.ts";
import { ENGINES } from "./helpers/store.ts";
import { KEPT_COUNTS_SQL, SCRATCH_COUNTS_SQL } from "./helpers/watched_counts_reference.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

type T = Awaited<ReturnType<typeof testApp>>;

// Ids no other test uses, since the PostgreSQL store's movies table is shared by the run.
const B = 1_900_300_000;

async function watch(t: T, u: TestUser, ids: number[]) {
  for (const [i, id] of ids.entries()) {
    const res = await t.request("/api/diary", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: id, watchedOn: `202${3 + i % 3}-06-0${1 + i}`, rating: 6 }),
    });
    assert.equal(res.status, 201, await res.text());
  }
}

async function exact(t: T, u: TestUser, step: string) {
  assert.deepEqual(
    await t.store.query(KEPT_COUNTS_SQL, [u.id]),
    await t.store.query(SCRATCH_COUNTS_SQL, [u.id]),
    step,
  );
  for (const year of [2023, 2024, 2025, null]) {
    const res = await t.request(`/api/stats${year ? `?year=${year}` : ""}`, {
      headers: u.headers,
    });
    assert.deepEqual(
      await res.json(),
      await referenceStats(t.store, u.id, year),
      `${step} ${year}`,
    );
  }
}

const count = async (t: T, table: string, userId: string) =>
  Number(
    (await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.${table} where user_id = $1`,
      [userId],
    ))[0].n,
  );

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a statement under an account's deletion that also takes another user's rows keeps that user's figures exact`, async () => {
    await using t = await testApp({ engine });
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, runtime, genres)
       select g, 'Kept ' || g, 2000, 100, array['Drama'] from generate_series($1::int, $2::int) g
       on conflict (catalog_id) do nothing`,
      [B + 1, B + 4],
    );
    const leaving = await createUser(t.deps);
    const staying = await createUser(t.deps);
    await watch(t, leaving, [B + 1, B + 2, B + 3]);
    await watch(t, staying, [B + 1, B + 2, B + 3, B + 4]);
    await exact(t, staying, "before");

    // Named as the leaving account, as public.delete_user_rows names it; these statements
    // take both users' rows (the second's cascades into the films' figures too), so the
    // staying user's upkeep must still run.
    await t.store.transaction(async (tx) => {
      await tx.query(`select pg_catalog.set_config('movies.deleting_user', $1, true)`, [
        leaving.id,
      ]);
      await tx.query(`delete from public.user_viewings where catalog_id = $1`, [B + 1]);
      await tx.query(`delete from public.user_watched_movies where catalog_id = $1`, [B + 3]);
    });
    await exact(t, staying, "after the shared statements");
  });

  Deno.test(`[${engine}] DELETE /api/account of a user with a diary leaves no row and no kept figure, and another's stay exact`, async () => {
    await using t = await testApp({ engine });
    const leaving = await createUser(t.deps);
    const staying = await createUser(t.deps);
    await watch(t, leaving, [B + 1, B + 2, B + 3]);
    await watch(t, staying, [B + 1, B + 2]);
    const res = await t.request("/api/account", {
      method: "DELETE",
      headers: { ...leaving.headers, "content-type": "application/json" },
      body: JSON.stringify({ confirm: "delete my account" }),
    });
    assert.equal(res.status, 204);
    for (
      const table of [
        "user_viewings",
        "user_watched_movies",
        "user_stats_films",
        "user_stats_periods",
        "user_stats_tallies",
        "user_watched_counts",
      ]
    ) {
      assert.equal(await count(t, table, leaving.id), 0, table);
    }
    await exact(t, staying, "after the other account went");
    // Named only for the deleting transaction: a later statement is kept as ever.
    const [{ setting }] = await t.store.query<{ setting: string | null }>(
      `select pg_catalog.current_setting('movies.deleting_user', true) as setting`,
    );
    assert.ok(!setting, `no account named outside the deletion (${setting})`);
  });
}
