import assert from "node:assert/strict";
import type { Store } from "../lib/platform/store/mod.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

async function addUser(store: Store): Promise<string> {
  const id = crypto.randomUUID();
  await store.query("insert into auth.users (id, email) values ($1, $2)", [
    id,
    `${id}@example.test`,
  ]);
  return id;
}

const insertAs = (store: Store, user: string, id: number) =>
  store.asUser(
    user,
    (tx) =>
      tx.query("insert into public.user_watched_movies (user_id, catalog_id) values ($1, $2)", [
        user,
        id,
      ]),
  );

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the watched history columns refuse a rating outside 1-10, a date before 1874 and a note over 2,000 characters`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    await insertAs(store, user, 5);
    const update = (set: string, value: unknown) =>
      store.asUser(
        user,
        (tx) =>
          tx.query(`update public.user_watched_movies set ${set} = $1 where catalog_id = 5`, [
            value,
          ]),
      );
    for (const rating of [0, 11]) await assert.rejects(() => update("rating", rating));
    await assert.rejects(() => update("watched_on", "1873-12-31"));
    await assert.rejects(() => update("note", "x".repeat(2001)));
    await update("rating", 1);
    await update("rating", 10);
    await update("watched_on", "1874-01-01");
    await update("note", "é".repeat(2000));
    const [row] = await store.query<{ rating: number; watched_on: string; n: number }>(
      `select rating, watched_on::text, char_length(note) as n
       from public.user_watched_movies where user_id = $1`,
      [user],
    );
    assert.deepEqual({ ...row }, { rating: 10, watched_on: "1874-01-01", n: 2000 });
  });

  Deno.test(`[${engine}] a new watched row is dated today (UTC) and unrated, without a note`, async () => {
    await using store = await testStore(engine);
    const user = await addUser(store);
    await insertAs(store, user, 6);
    const [row] = await store.query<Record<string, unknown>>(
      `select rating, note, watched_on = (now() at time zone 'utc')::date as today
       from public.user_watched_movies where user_id = $1`,
      [user],
    );
    assert.deepEqual({ ...row }, { rating: null, note: null, today: true });
  });

  Deno.test(`[${engine}] another user can neither read nor change a watched entry's rating, date or note`, async () => {
    await using store = await testStore(engine);
    const alice = await addUser(store);
    const bob = await addUser(store);
    await insertAs(store, alice, 7);
    await store.asUser(
      alice,
      (tx) => tx.query(`update public.user_watched_movies set rating = 8, note = 'mine'`),
    );
    const seen = await store.asUser(
      bob,
      (tx) => tx.query("select rating, note from public.user_watched_movies"),
    );
    assert.deepEqual(seen, []);
    await store.asUser(
      bob,
      (tx) =>
        tx.query(
          `update public.user_watched_movies set rating = 1, note = 'bob' where user_id = $1`,
          [
            alice,
          ],
        ),
    );
    const [row] = await store.query<Record<string, unknown>>(
      "select rating, note from public.user_watched_movies where user_id = $1",
      [alice],
    );
    assert.deepEqual({ ...row }, { rating: 8, note: "mine" });
  });
}
