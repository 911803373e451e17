/**
 * The user's alert kinds and the notification kinds the store accepts (docs/availability.md,
 * "Release alerts"): defaults without a row, partial writes as the user, row-level security, and
 * release alerts stored once per film, kind and region.
 */
import assert from "node:assert/strict";
import {
  ALERT_KINDS,
  type AlertKinds,
  readAlertKinds,
  writeAlertKinds,
} from "@/lib/catalog/notifications/alert_kinds.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

type TestStore = Awaited<ReturnType<typeof testStore>>;

async function user(store: TestStore): Promise<string> {
  const id = crypto.randomUUID();
  await store.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [id, `kinds-${id.slice(0, 8)}@example.test`],
  );
  return id;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a user who never chose gets every alert kind but discs`, async () => {
    await using store = await testStore(engine);
    const id = await user(store);
    const kinds = await readAlertKinds(store, id);
    assert.deepEqual(Object.keys(kinds), [...ALERT_KINDS]);
    assert.deepEqual(kinds, {
      now_streaming: true,
      in_theaters: true,
      on_digital: true,
      on_physical: false,
    });
  });

  Deno.test(`[${engine}] writing some alert kinds keeps the others and reads back the same`, async () => {
    await using store = await testStore(engine);
    const id = await user(store);
    const first = await writeAlertKinds(store, id, { on_physical: true, in_theaters: false });
    const expected: AlertKinds = {
      now_streaming: true,
      in_theaters: false,
      on_digital: true,
      on_physical: true,
    };
    assert.deepEqual(first, expected);
    const second = await writeAlertKinds(store, id, { now_streaming: false });
    assert.deepEqual(second, { ...first, now_streaming: false });
    assert.deepEqual(await readAlertKinds(store, id), second);
    // Another user is untouched.
    assert.equal((await readAlertKinds(store, await user(store))).in_theaters, true);
  });

  Deno.test(`[${engine}] as a user, the alert settings of someone else are neither seen nor changed`, async () => {
    await using store = await testStore(engine);
    const a = await user(store);
    const b = await user(store);
    await writeAlertKinds(store, b, { on_digital: false });
    const seen = await store.asUser(
      a,
      (tx) => tx.query(`select * from public.user_alert_settings`),
    );
    assert.deepEqual(seen, []);
    await assert.rejects(
      store.asUser(
        a,
        (tx) => tx.query(`insert into public.user_alert_settings (user_id) values ($1)`, [b]),
      ),
    );
    const changed = await store.asUser(
      a,
      (tx) => tx.query(`update public.user_alert_settings set on_digital = true returning 1`),
    );
    assert.equal(changed.length, 0);
    assert.equal((await readAlertKinds(store, b)).on_digital, false);
  });

  Deno.test(`[${engine}] the store keeps a release alert once per film, kind and region, and checks each kind's fields`, async () => {
    await using store = await testStore(engine);
    const id = await user(store);
    const insert = (kind: string, region: string, type = "theatrical") =>
      store.query(
        `insert into public.user_notifications
           (user_id, kind, catalog_id, region, release_type, release_date)
         values ($1, $2, 550, $3, $4, '2026-12-06')
         on conflict (user_id, catalog_id, kind, region)
           where kind in ('in_theaters', 'on_digital', 'on_physical') do nothing
         returning 1`,
        [id, kind, region, type],
      );
    assert.equal((await insert("in_theaters", "US")).length, 1);
    assert.equal((await insert("in_theaters", "US")).length, 0);
    assert.equal((await insert("in_theaters", "DE")).length, 1);
    assert.equal((await insert("on_digital", "US", "digital")).length, 1);
    // A release alert without its date, a streaming alert without its provider, a channel
    // notice without its name: refused.
    await assert.rejects(store.query(
      `insert into public.user_notifications (user_id, kind, catalog_id, region, release_type)
       values ($1, 'on_physical', 550, 'US', 'physical')`,
      [id],
    ));
    await assert.rejects(store.query(
      `insert into public.user_notifications (user_id, kind, catalog_id, region)
       values ($1, 'now_streaming', 550, 'US')`,
      [id],
    ));
    await assert.rejects(store.query(
      `insert into public.user_notifications (user_id, kind) values ($1, 'channel_disabled')`,
      [id],
    ));
    await assert.rejects(store.query(
      `insert into public.user_notifications (user_id, kind, channel_name)
       values ($1, 'something_else', 'x')`,
      [id],
    ));
    const notice = await store.query(
      `insert into public.user_notifications (user_id, kind, channel_name)
       values ($1, 'channel_disabled', 'My ntfy') returning catalog_id, region`,
      [id],
    );
    assert.deepEqual(notice, [{ catalog_id: null, region: null }]);
  });
}
