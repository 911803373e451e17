import assert from "node:assert/strict";
import { openPgliteStore } from "../lib/store/pglite.ts";
import { startPgliteThread } from "../lib/store/pglite_thread.ts";

// About half a second of work for the database, whatever the machine: no table, no I/O.
const LONG_STATEMENT = "select count(*)::int as n from generate_series(1, 4000000)";

Deno.test("[embedded] a statement runs on the store's own thread: the event loop keeps turning while it runs", async () => {
  const store = await openPgliteStore();
  try {
    let turns = 0;
    const ticking = setInterval(() => turns++, 1);
    try {
      const [{ n }] = await store.query<{ n: number }>(LONG_STATEMENT);
      assert.equal(n, 4_000_000);
    } finally {
      clearInterval(ticking);
    }
    // On the event loop's thread the statement held every timer until it answered (0 or 1 turn).
    assert.ok(turns >= 5, `${turns} timer turns while the statement ran`);
  } finally {
    await store.close();
  }
});

Deno.test("[embedded] a statement longer than the store's deadline answers: the deadline counts waiting, not the database's work", async () => {
  const store = await openPgliteStore({ timeoutMs: 50 });
  try {
    const [{ n }] = await store.query<{ n: number }>(LONG_STATEMENT);
    assert.equal(n, 4_000_000);
    // Waiting is still bounded: a call behind a transaction its caller holds open fails 503.
    const release = Promise.withResolvers<void>();
    const holder = store.transaction(() => release.promise).catch(() => {});
    await assert.rejects(store.query("select 1"), { code: "store_unavailable" });
    release.resolve();
    await holder;
  } finally {
    await store.close();
  }
});

Deno.test("[embedded] a statement's error crosses the thread with its SQLSTATE and constraint", async () => {
  const store = await openPgliteStore();
  try {
    await store.exec("create table t (id int constraint t_pkey primary key)");
    await store.query("insert into t values (1)");
    await assert.rejects(store.query("insert into t values (1)"), (error: Error) => {
      const e = error as Error & { code?: string; constraint?: string };
      assert.equal(e.code, "23505");
      assert.equal(e.constraint, "t_pkey");
      assert.match(e.message, /duplicate key/);
      return true;
    });
    // A failed statement inside a transaction rolls the whole of it back.
    await assert.rejects(store.transaction(async (tx) => {
      await tx.query("insert into t values (2)");
      await tx.query("insert into t values (1)");
    }));
    assert.deepEqual(await store.query("select id from t order by id"), [{ id: 1 }]);
  } finally {
    await store.close();
  }
});

Deno.test("a store thread whose worker dies fails the call waiting and every later one", async () => {
  const source = "self.onmessage = () => { throw new Error('the database crashed'); };";
  const url = URL.createObjectURL(new Blob([source], { type: "application/javascript" }));
  try {
    const thread = startPgliteThread({ spawn: () => new Worker(url, { type: "module" }) });
    await assert.rejects(thread.call({ op: "exec", sql: "select 1" }), /thread died/);
    await assert.rejects(thread.call({ op: "exec", sql: "select 1" }), /thread died/);
    assert.equal(thread.working, false);
    thread.terminate();
  } finally {
    URL.revokeObjectURL(url);
  }
});
