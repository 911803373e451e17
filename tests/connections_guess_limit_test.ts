/**
 * Guessing webhook secrets (docs/connections.md): unknown-secret requests are counted per client
 * address in memory, 20 a minute; the 21st request from that address is a 429 whatever the
 * secret, until the minute ends; other addresses are not touched, and no guess writes to KV.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES, testDatabaseUrl } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { hookPath, jsonPost } from "./helpers/webhooks.ts";
import { createGuessLimit, GUESS_LIMIT } from "@/lib/connections/webhooks/guess_limit.ts";
import type { Kv } from "@/lib/platform/kv/kv.ts";
import { PgKv } from "@/lib/platform/coordination/pg_kv.ts";

const EVENT = jsonPost({ NotificationType: "SessionStart" });

function from(address: string): RequestInit {
  return { ...EVENT, headers: { ...EVENT.headers, "x-client-ip": address } };
}

/** A different 22-character guess each time. */
function guess(i: number): string {
  return `guess${String(i).padStart(17, "0")}`;
}

async function kvEntries(kv: Kv): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: [] })) n++;
  return n;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] 20 unknown secrets a minute from one address are 404; the 21st request from it is 429 even with a known secret, until the next minute`, async () => {
    // On PostgreSQL the KV is the store's own coordination schema, the shared store of the issue.
    const coordination: Record<string, string> = engine === "postgres"
      ? { COORDINATION: "postgres", DATABASE_URL: await testDatabaseUrl() }
      : {};
    await using t = await testApp({
      engine,
      env: { CLIENT_IP_HEADER: "x-client-ip", ...coordination },
    });
    t.clock.set("2026-11-28T20:00:00.000Z");
    const u = await createUser(t.deps);
    const hook = await hookPath(t, u);
    const before = await kvEntries(t.kv);
    assert.equal(GUESS_LIMIT.limit, 20);
    for (let i = 0; i < GUESS_LIMIT.limit; i++) {
      await problem(
        await t.request(`/hooks/${guess(i)}/jellyfin`, from("203.0.113.7")),
        404,
        "not_found",
        `guess ${i + 1}`,
      );
    }
    assert.equal(await kvEntries(t.kv), before, "no guess wrote to KV");
    if (engine === "postgres") assert.ok(t.kv instanceof PgKv);
    t.clock.advance(59_000);
    const refused = await t.request(`/hooks/${guess(99)}/jellyfin`, from("203.0.113.7"));
    assert.equal(refused.headers.get("retry-after"), "1");
    await problem(refused, 429, "rate_limited");
    // Refused before the lookup: a right secret from that address learns nothing either.
    await problem(await t.request(`${hook}/jellyfin`, from("203.0.113.7")), 429, "rate_limited");
    // Another address is counted on its own.
    const other = await t.request(`${hook}/jellyfin`, from("198.51.100.4"));
    assert.equal(other.status, 200);
    await other.body?.cancel();
    await problem(
      await t.request(`/hooks/${guess(100)}/jellyfin`, from("198.51.100.4")),
      404,
      "not_found",
    );
    t.clock.advance(1_000);
    const again = await t.request(`${hook}/jellyfin`, from("203.0.113.7"));
    assert.equal(again.status, 200, "a new minute");
    await again.body?.cancel();
  });
}

Deno.test("the guess limit keeps at most maxAddresses counts a window; later addresses share one", () => {
  const limit = createGuessLimit({ limit: 2, windowMs: 1_000, maxAddresses: 2 });
  const now = 10_000;
  limit.miss("a", now);
  limit.miss("b", now);
  limit.miss("c", now);
  assert.equal(limit.refusedFor("c", now), null);
  limit.miss("d", now);
  // c and d share the overflow count, which is now full; a and b have their own.
  assert.equal(limit.refusedFor("c", now), 1);
  assert.equal(limit.refusedFor("e", now), 1);
  assert.equal(limit.refusedFor("a", now), null);
  limit.miss("a", now + 999);
  assert.equal(limit.refusedFor("a", now + 999), 1);
  assert.equal(limit.refusedFor("a", now + 1_000), null, "a new window starts every count at 0");
  assert.equal(limit.refusedFor("e", now + 1_000), null);
});
