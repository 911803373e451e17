import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { DEFAULT_PAGES, parseImportBody, takeImportLock } from "../lib/catalog/import/mod.ts";
import { adminTokenMatches } from "../lib/http/middleware/admin_token.ts";
import { readImportBody } from "../lib/http/payloads.ts";
import { taskPool } from "../lib/core/async/pool.ts";
import { Problem } from "../lib/core/problem.ts";

Deno.test("the admin token matches only the configured value, and never when none is configured", async () => {
  assert.equal(await adminTokenMatches("s3cret-token", "s3cret-token"), true);
  assert.equal(await adminTokenMatches("s3cret-tokeN", "s3cret-token"), false);
  assert.equal(await adminTokenMatches("s3cret", "s3cret-token"), false);
  assert.equal(await adminTokenMatches(undefined, "s3cret-token"), false);
  assert.equal(await adminTokenMatches("", "s3cret-token"), false);
  assert.equal(await adminTokenMatches(undefined, undefined), false);
  assert.equal(await adminTokenMatches("", undefined), false);
  assert.equal(await adminTokenMatches("", ""), false);
});

Deno.test("the import body defaults to 5 pages and takes an integer from 1 to 25", () => {
  assert.equal(DEFAULT_PAGES, 5);
  assert.deepEqual(parseImportBody(undefined), { pages: 5 });
  assert.deepEqual(parseImportBody({}), { pages: 5 });
  assert.deepEqual(parseImportBody({ pages: 1 }), { pages: 1 });
  assert.deepEqual(parseImportBody({ pages: 25 }), { pages: 25 });
});

Deno.test("the import body refuses pages out of range, not integers, unknown keys and non-objects", () => {
  for (
    const body of [
      { pages: 0 },
      { pages: 26 },
      { pages: -1 },
      { pages: "3" },
      { pages: 2.5 },
      { pages: null },
      { page: 3 },
      { pages: 3, extra: true },
      [],
      null,
      3,
      "pages",
    ]
  ) {
    assert.throws(
      () => parseImportBody(body),
      (e) => e instanceof Problem && e.status === 400 && e.code === "invalid_body",
      JSON.stringify(body),
    );
  }
});

Deno.test("an empty or blank request body is the default; text that is not JSON is invalid_body", async () => {
  const req = (body?: string) =>
    new Request("http://x/", { method: "POST", body, headers: { "content-type": "text/plain" } });
  assert.deepEqual(await readImportBody(req()), { pages: 5 });
  assert.deepEqual(await readImportBody(req("  \n")), { pages: 5 });
  assert.deepEqual(await readImportBody(req('{"pages":7}')), { pages: 7 });
  await assert.rejects(
    readImportBody(req("pages=3")),
    (e) => e instanceof Problem && e.code === "invalid_body",
  );
  await assert.rejects(
    readImportBody(req(`{"pages":3,"pad":"${"x".repeat(17 * 1024)}"}`)),
    (e) => e instanceof Problem && e.code === "invalid_body",
  );
});

Deno.test("the task pool never runs more than its limit and runs tasks added while running", async () => {
  let active = 0;
  let peak = 0;
  const done: number[] = [];
  const pool = taskPool(3);
  const task = (n: number) => async () => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 2));
    active--;
    done.push(n);
    if (n < 5) pool.add(task(n + 100));
  };
  for (let n = 0; n < 10; n++) pool.add(task(n));
  await pool.drained();
  assert.equal(peak, 3);
  assert.equal(done.length, 15);
  assert.deepEqual(done.slice(0, 3).sort(), [0, 1, 2]);
});

Deno.test("the task pool hands a failing task to onError and goes on; stop drops what is queued", async () => {
  const errors: unknown[] = [];
  const ran: number[] = [];
  const pool = taskPool(1, { onError: (e) => errors.push(e) });
  pool.add(() => Promise.reject(new Error("boom")));
  pool.add(() => {
    ran.push(1);
    pool.stop();
    return Promise.resolve();
  });
  pool.add(() => {
    ran.push(2);
    return Promise.resolve();
  });
  await pool.drained();
  assert.equal(errors.length, 1);
  assert.deepEqual(ran, [1]);
});

Deno.test("the import lock is renewed by its holder, and a dead holder's lease runs out", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock();
  const lock = await takeImportLock(kv, "run-a", { clock, ttlMs: 1000 });
  assert.ok(lock);
  assert.equal(await takeImportLock(kv, "run-b", { clock, ttlMs: 1000 }), null);
  clock.advance(900);
  assert.equal(await lock.renew(), true);
  clock.advance(900);
  // Renewed at 900, so it still holds at 1800.
  assert.equal(await takeImportLock(kv, "run-x", { clock, ttlMs: 1000 }), null);
  clock.advance(200);
  // Not renewed since: it ran out, so another takes it, and the old holder cannot renew.
  const other = await takeImportLock(kv, "run-b", { clock, ttlMs: 1000 });
  assert.ok(other);
  assert.equal(await lock.renew(), false);
  await lock.release();
  assert.equal(await takeImportLock(kv, "run-c", { clock, ttlMs: 1000 }), null);
  await other.release();
  assert.ok(await takeImportLock(kv, "run-c", { clock, ttlMs: 1000 }));
});
