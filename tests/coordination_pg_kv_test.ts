/**
 * COORDINATION=postgres (docs/coordination.md): the PostgreSQL KV answers as Deno KV does for
 * every operation the service uses, expiry follows the injected clock, and the window, the
 * quota, the leases and the rate limits hold over it, shared by instances with their own
 * connections. Runs on the embedded store always and on TEST_DATABASE_URL when set; the test
 * of many connections at once needs the server.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { ConfigError, loadConfig } from "../lib/core/config.ts";
import { PgKv } from "../lib/platform/coordination/pg_kv.ts";
import { decodeKey, encodeKey } from "../lib/platform/coordination/key_codec.ts";
import { startSweeping, sweepExpired } from "../lib/platform/coordination/sweep.ts";
import { decodeValue, encodeValue } from "../lib/platform/coordination/value_codec.ts";
import type { Kv, KvKey } from "../lib/platform/kv/kv.ts";
import { takeCount } from "../lib/platform/kv/counter.ts";
import { isLeaseHeld, tryLock } from "../lib/platform/kv/lock.ts";
import { createExternalWindow } from "../lib/catalog/external_window.ts";
import { consumeQuota, DAILY_LIMIT, quotaStatus, refundQuota } from "../lib/recommend/quota.ts";
import { giveBack, takeAttempt, type WindowLimit } from "../lib/identity/auth/rate_limit.ts";
import { Problem } from "../lib/core/problem.ts";
import { saveFlow, takeFlow } from "../lib/identity/oidc/flow.ts";
import {
  unsubscribeToken,
  verifyUnsubscribeToken,
} from "../lib/catalog/notifications/unsubscribe_token.ts";
import { isUserDeleted, markUserDeleted } from "../lib/identity/auth/deleted_users.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import type { Sql } from "../lib/platform/store/mod.ts";
import { PendingWork } from "./helpers/settled.ts";
import { ENGINES, TEST_DATABASE_URL, testDatabaseUrl, testStore } from "./helpers/store.ts";

const START = "2026-11-29T12:00:00.000Z";

// Every test keys its entries under a fresh prefix: the server's table is shared by runs.
const fresh = (): KvKey => ["t", crypto.randomUUID()];

/** What a sequence of KV operations answered, versionstamps written as which commit made them. */
async function transcript(kv: Kv, root: KvKey): Promise<unknown[]> {
  const out: unknown[] = [];
  const stamps = new Map<string | null, string>([[null, "none"]]);
  const name = (s: string | null) => {
    if (!stamps.has(s)) stamps.set(s, `v${stamps.size}`);
    return stamps.get(s);
  };
  const k = (...parts: Deno.KvKeyPart[]): KvKey => [...root, ...parts];
  const entry = async (key: KvKey) => {
    const e = await kv.get(key);
    return { value: e.value, stamp: name(e.versionstamp) };
  };
  const commit = async (op: ReturnType<Kv["atomic"]>) => {
    const r = await op.commit();
    return r.ok ? { ok: true, stamp: name(r.versionstamp) } : { ok: false };
  };
  out.push(await entry(k("a")));
  out.push(name((await kv.set(k("a"), { n: 1 })).versionstamp));
  const a = await kv.get(k("a"));
  out.push(await entry(k("a")));
  // A check of the version read passes once; the same check after it fails, writing nothing.
  out.push(await commit(kv.atomic().check(a).set(k("a"), { n: 2 }).set(k("b"), "b")));
  out.push(await commit(kv.atomic().check(a).set(k("a"), { n: 3 }).set(k("c"), "c")));
  out.push(await entry(k("a")), await entry(k("c")));
  // A check of absence passes only while the key is absent.
  out.push(await commit(kv.atomic().check({ key: k("d"), versionstamp: null }).set(k("d"), 1)));
  out.push(await commit(kv.atomic().check({ key: k("d"), versionstamp: null }).set(k("d"), 2)));
  // The last write of a key in one operation wins; a delete then a set leaves the set.
  out.push(await commit(kv.atomic().set(k("e"), 1).set(k("e"), 2).delete(k("b"))));
  out.push(await commit(kv.atomic().delete(k("f")).set(k("f"), "f")));
  out.push(await entry(k("e")), await entry(k("b")), await entry(k("f")));
  await kv.delete(k("d"));
  out.push(await entry(k("d")));
  // Keys of every part type, listed under a prefix in Deno KV's order, the prefix itself left out.
  const parts: Deno.KvKeyPart[] = [
    true,
    false,
    10n,
    -3n,
    2.5,
    -1,
    0,
    "z",
    "",
    "a\u0000b",
    "ä",
    new Uint8Array([2]),
    new Uint8Array([]),
  ];
  await kv.set(k("l"), "the prefix itself");
  for (const part of parts) await kv.set(k("l", part), { part: String(part) });
  await kv.set(k("l", "z", 1), "deeper");
  await kv.set(k("lm"), "beside, not under");
  for await (const e of kv.list({ prefix: k("l") })) {
    out.push({ key: e.key.slice(root.length), value: e.value });
  }
  out.push(await entry(k("u64")), await commit(kv.atomic().set(k("u64"), new Deno.KvU64(7n))));
  out.push((await kv.get<Deno.KvU64>(k("u64"))).value?.value);
  return out;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the PostgreSQL KV answers every operation the service uses as Deno KV does`, async () => {
    await using store = await testStore(engine);
    using deno = await Deno.openKv(":memory:");
    const pg = new PgKv(store, { clock: new FakeClock(START) });
    const root = fresh();
    assert.deepEqual(await transcript(pg, root), await transcript(deno, root));
  });

  Deno.test(`[${engine}] entries expire by the injected clock: absent to reads, checks and lists`, async () => {
    await using store = await testStore(engine);
    const clock = new FakeClock(START);
    const kv = new PgKv(store, { clock });
    const root = fresh();
    await kv.set([...root, "x"], 1, { expireIn: 1000 });
    const live = await kv.get([...root, "x"]);
    clock.advance(999);
    assert.equal((await kv.get([...root, "x"])).value, 1);
    clock.advance(1);
    assert.deepEqual(await kv.get([...root, "x"]), {
      key: [...root, "x"],
      value: null,
      versionstamp: null,
    });
    const listed = [];
    for await (const e of kv.list({ prefix: root })) listed.push(e);
    assert.deepEqual(listed, []);
    // The version read while live no longer holds; absence does.
    assert.equal((await kv.atomic().check(live).set([...root, "x"], 2).commit()).ok, false);
    const absent = { key: [...root, "x"], versionstamp: null };
    assert.equal((await kv.atomic().check(absent).set([...root, "x"], 3).commit()).ok, true);
    assert.equal((await kv.get([...root, "x"])).value, 3);
  });

  Deno.test(`[${engine}] the sweep deletes expired rows in bounded rounds and keeps live and renewed ones`, async () => {
    await using store = await testStore(engine);
    const clock = new FakeClock(START);
    const kv = new PgKv(store, { clock });
    const root = fresh();
    for (let i = 0; i < 25; i++) await kv.set([...root, "old", i], i, { expireIn: 1000 });
    await kv.set([...root, "kept"], "no expiry");
    await kv.set([...root, "renewed"], 1, { expireIn: 1000 });
    clock.advance(500);
    await kv.set([...root, "renewed"], 2, { expireIn: 1000 });
    clock.advance(600);
    const rows = async () =>
      (await store.query<{ n: number }>(
        `select count(*)::int as n from coordination.entries where key like $1 || '%'`,
        [encodeKey(root)],
      ))[0].n;
    assert.equal(await rows(), 27);
    // Two rounds of ten: twenty go, no more (on a shared server some may be other runs' rows).
    assert.equal(await sweepExpired(store, { clock, roundRows: 10, maxRounds: 2 }), 20);
    await sweepExpired(store, { clock });
    assert.equal(await rows(), 2);
    assert.equal((await kv.get([...root, "kept"])).value, "no expiry");
    assert.equal((await kv.get([...root, "renewed"])).value, 2);
  });

  Deno.test(`[${engine}] the sweep runs by itself every minute of the clock until stopped`, async () => {
    await using store = await testStore(engine);
    const work = new PendingWork();
    const sql = work.wrap(store);
    const clock = new FakeClock(START);
    const kv = new PgKv(store, { clock });
    const key = [...fresh(), "x"];
    await kv.set(key, 1, { expireIn: 1000 });
    const row = async () =>
      (await store.query("select 1 from coordination.entries where key = $1", [encodeKey(key)]))
        .length;
    const stop = startSweeping(sql, { clock, log: () => {} });
    clock.advance(59_999);
    await work.settled();
    assert.equal(await row(), 1, "no sweep before a minute");
    clock.advance(1);
    await work.settled();
    assert.equal(await row(), 0);
    stop();
    await kv.set(key, 2, { expireIn: 1000 });
    clock.advance(120_000);
    await work.settled();
    assert.equal(await row(), 1, "a stopped sweep sweeps no more");
  });

  Deno.test(`[${engine}] two instances on one database share the external window, its background share and a 429's close`, async () => {
    await using store = await testStore(engine);
    await using other = await secondConnection(store, engine);
    const clock = new FakeClock("2026-11-29T12:00:00.900Z");
    const prefix = fresh();
    const a = createExternalWindow(new PgKv(store, { clock }), { clock, limit: 4, prefix });
    const b = createExternalWindow(new PgKv(other, { clock }), { clock, limit: 4, prefix });
    await a.acquire({ wait: false, background: true });
    await b.acquire({ wait: false, background: true });
    // The background share (half) is spent in both instances; a person's call still passes.
    await assert.rejects(b.acquire({ wait: false, background: true }), isStatus(429));
    assert.equal((await a.acquire({ wait: false }))["X-RateLimit-Remaining"], "1");
    assert.equal((await b.acquire({ wait: false }))["X-RateLimit-Remaining"], "0");
    await assert.rejects(a.acquire({ wait: false }), isStatus(429));
    assert.equal(await b.taken(clock.now()), 4);
    // A waiting call sleeps to the next window (the fake clock moves) and takes its first place.
    assert.equal((await a.acquire({ wait: true }))["X-RateLimit-Remaining"], "3");
    assert.equal(clock.now(), Date.parse("2026-11-29T12:00:01.000Z"));
    // An upstream 429 seen by one instance closes the window for the other: past the longest
    // wait, a waiting call is 503 at once.
    await a.block(clock.now() + 6000);
    await assert.rejects(b.acquire({ wait: false }), isStatus(429));
    await assert.rejects(b.acquire({ wait: true }), isStatus(503));
    const headers = await b.peek();
    assert.equal(headers["X-RateLimit-Remaining"], "0");
    clock.advance(6000);
    assert.equal((await b.acquire({ wait: false }))["X-RateLimit-Remaining"], "3");
  });

  Deno.test(`[${engine}] the daily quota holds across instances on one database, and a refund gives one back`, async () => {
    await using store = await testStore(engine);
    await using other = await secondConnection(store, engine);
    const clock = new FakeClock(START);
    const kvs = [new PgKv(store, { clock }), new PgKv(other, { clock })];
    const user = crypto.randomUUID();
    const taken = await Promise.all(
      Array.from({ length: DAILY_LIMIT + 5 }, (_, i) => consumeQuota(kvs[i % 2], user, { clock })),
    );
    assert.equal(taken.filter(Boolean).length, DAILY_LIMIT);
    assert.equal((await quotaStatus(kvs[1], user, { clock })).remaining, 0);
    await refundQuota(kvs[0], taken.find(Boolean)!);
    assert.equal((await quotaStatus(kvs[1], user, { clock })).remaining, 1);
    assert.ok(await consumeQuota(kvs[1], user, { clock }));
    assert.equal(await consumeQuota(kvs[0], user, { clock }), null);
    // The next UTC day starts afresh.
    clock.set(Date.parse("2026-11-30T00:00:00.000Z"));
    assert.equal((await quotaStatus(kvs[0], user, { clock })).remaining, DAILY_LIMIT);
  });

  Deno.test(`[${engine}] a lease is one holder's across instances until released or lapsed by the clock`, async () => {
    await using store = await testStore(engine);
    await using other = await secondConnection(store, engine);
    const clock = new FakeClock(START);
    const a = new PgKv(store, { clock });
    const b = new PgKv(other, { clock });
    const key = fresh();
    const held = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tryLock(i % 2 ? a : b, key, { ttlMs: 1000, clock })),
    );
    const winner = held.filter((l) => l !== null);
    assert.equal(winner.length, 1, "ten at once: one lease");
    assert.equal(await isLeaseHeld(b, key, { clock }), true);
    assert.equal(await tryLock(b, key, { ttlMs: 1000, clock }), null);
    clock.advance(1000);
    const next = await tryLock(b, key, { ttlMs: 1000, clock });
    assert.ok(next, "a lapsed lease is taken");
    assert.equal(await winner[0]!.renew(), false, "the lapsed holder cannot take it back");
    await winner[0]!.release();
    assert.equal(await isLeaseHeld(a, key, { clock }), true, "its release leaves the new holder");
    await next.release();
    assert.equal(await isLeaseHeld(a, key, { clock }), false);
  });

  Deno.test(`[${engine}] a rate limit counts across instances, refuses at its edge with Retry-After, and gives back`, async () => {
    await using store = await testStore(engine);
    await using other = await secondConnection(store, engine);
    const clock = new FakeClock(START);
    const kvs = [new PgKv(store, { clock }), new PgKv(other, { clock })];
    const limit: WindowLimit = { name: `test_${crypto.randomUUID()}`, limit: 5, windowMs: 60_000 };
    const check = [{ limit, subject: "203.0.113.7" }];
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await takeAttempt(kvs[i % 2], check, { clock }));
    assert.ok(attempts.every((a) => a.allowed));
    assert.deepEqual(await takeAttempt(kvs[1], check, { clock }), {
      allowed: false,
      retryAfterS: 60,
    });
    const last = attempts[4];
    assert.ok(last.allowed);
    await giveBack(kvs[0], last, { uncount: [limit] });
    assert.equal((await takeAttempt(kvs[1], check, { clock })).allowed, true);
    assert.equal((await takeAttempt(kvs[0], check, { clock })).allowed, false);
    clock.advance(60_000);
    assert.equal((await takeAttempt(kvs[0], check, { clock })).allowed, true);
  });

  Deno.test(`[${engine}] what is not a count holds across instances too: a sign-in flow once, a signed link, a deleted user`, async () => {
    await using store = await testStore(engine);
    await using other = await secondConnection(store, engine);
    const clock = new FakeClock(START);
    const [a, b] = [new PgKv(store, { clock }), new PgKv(other, { clock })];
    const flow = {
      nonce: "n",
      verifier: "v",
      redirectTo: "https://movies.example/",
      codeChallenge: "c",
      codeChallengeMethod: "s256" as const,
    };
    const state = await saveFlow(a, flow);
    const taken = await Promise.all([takeFlow(b, state), takeFlow(a, state)]);
    assert.deepEqual(taken.filter(Boolean), [flow], "the callback on either machine takes it once");
    const user = crypto.randomUUID();
    assert.equal(await verifyUnsubscribeToken(b, await unsubscribeToken(a, user)), user);
    await markUserDeleted(a, user);
    assert.equal(await isUserDeleted(b, user), true);
  });

  Deno.test(`[${engine}] the coordination schema is closed to Supabase's API roles`, async () => {
    await using store = await testStore(engine);
    const user = crypto.randomUUID();
    await assert.rejects(
      store.asUser(user, (tx) => tx.query("select count(*) from coordination.entries")),
      /permission denied/,
    );
  });
}

Deno.test({
  name: "[postgres] 300 counting steps at once from three connection pools never pass the limit",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const url = await testDatabaseUrl();
    const pools = [0, 1, 2].map(() => openPostgresStore(url, { max: 5 }));
    try {
      const clock = new FakeClock(START);
      const kvs = pools.map((p) => new PgKv(p, { clock }));
      const key = fresh();
      const slots = [{ key, limit: 120, expireIn: 60_000 }];
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => takeCount(kvs[i % 3], slots)),
      );
      const counts = results.flatMap((r) => r.taken ? r.counts : []).sort((x, y) => x - y);
      assert.deepEqual(counts, Array.from({ length: 120 }, (_, i) => i + 1));
      assert.equal((await kvs[0].get<number>(key)).value, 120);
      // The read-check-commit path under the same contention: 60 increments, none lost.
      const counter = [...fresh(), "n"];
      await Promise.all(Array.from({ length: 60 }, async (_, i) => {
        const kv = kvs[i % 3];
        for (;;) {
          const e = await kv.get<number>(counter);
          const done = await kv.atomic().check(e).set(counter, (e.value ?? 0) + 1).commit();
          if (done.ok) return;
        }
      }));
      assert.equal((await kvs[1].get<number>(counter)).value, 60);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  },
});

Deno.test("key and value encodings round-trip, and refuse what Deno KV refuses", () => {
  const key: KvKey = [
    "s",
    "\u0000\u0001\u0002x",
    1.5,
    -0.25,
    12n,
    -7n,
    true,
    new Uint8Array([0, 255]),
  ];
  assert.deepEqual(decodeKey(encodeKey(key)), key);
  const value = {
    u64: new Deno.KvU64(2n ** 63n),
    big: -(2n ** 70n),
    bytes: new Uint8Array([1, 2, 3]),
    at: new Date(START),
    nothing: undefined,
    odd: [NaN, Infinity, "nul\u0000inside"],
    tricky: { $kv: "u64", v: "1" },
  };
  const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(value))));
  assert.deepEqual(back, value);
  assert.throws(() => encodeValue(new Map()), TypeError);
  assert.throws(() => encodeValue(() => 1), TypeError);
  assert.throws(() => encodeKey(["\ud800"]), TypeError);
});

Deno.test("COORDINATION is kv by default, postgres only with DATABASE_URL, and nothing else", () => {
  assert.equal(loadConfig({}).coordination, "kv");
  const url = "postgres://u:p@db.example:5432/movies";
  assert.equal(
    loadConfig({ COORDINATION: "postgres", DATABASE_URL: url }).coordination,
    "postgres",
  );
  assert.throws(
    () => loadConfig({ COORDINATION: "postgres" }),
    (e) => e instanceof ConfigError && /COORDINATION .*needs DATABASE_URL/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ COORDINATION: "redis", DATABASE_URL: url }),
    (e) => e instanceof ConfigError && /COORDINATION must be "kv" or "postgres"/.test(e.message),
  );
});

function isStatus(status: number) {
  return (e: unknown) => e instanceof Problem && e.status === status;
}

// A second instance's own connections: a second pool on the server; the embedded store has
// one connection, so there the second instance shares it (the rows are still the meeting place).
async function secondConnection(store: Sql, engine: string): Promise<Sql & AsyncDisposable> {
  if (engine === "postgres") return await testStore("postgres");
  return {
    query: (text, params) => store.query(text, params),
    exec: (script) => store.exec(script),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
}
