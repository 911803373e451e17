import type { Kv, KvAtomic } from "../lib/platform/kv/kv.ts";
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { createRecommendService } from "../lib/recommend/mod.ts";
import { consumeQuota, quotaStatus, refundQuota } from "../lib/recommend/quota.ts";
import { modelLike, POOL, recommendWorld } from "./helpers/recommend_world.ts";

function remaining(res: Response): number {
  return Number(res.headers.get("x-ratelimit-remaining"));
}

Deno.test("quota: 20 units a UTC day, the 21st refused, a refund gives one back, midnight starts over", async () => {
  using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-11-22T23:00:00Z");
  const units = [];
  for (let i = 0; i < 20; i++) units.push(await consumeQuota(kv, "u1", { clock }));
  assert.ok(units.every((u) => u?.day === "2026-11-22"));
  assert.equal(await consumeQuota(kv, "u1", { clock }), null);
  assert.equal(await consumeQuota(kv, "u1", { clock }), null);
  assert.deepEqual(await quotaStatus(kv, "u1", { clock }), {
    limit: 20,
    used: 20,
    remaining: 0,
    resetAt: new Date("2026-11-23T00:00:00Z"),
  });
  assert.equal((await quotaStatus(kv, "u2", { clock })).used, 0, "per user");
  await refundQuota(kv, units[0]!);
  assert.ok(await consumeQuota(kv, "u1", { clock }));
  clock.set("2026-11-22T23:59:59.999Z");
  assert.equal(await consumeQuota(kv, "u1", { clock }), null);
  clock.advance(1);
  const next = await quotaStatus(kv, "u1", { clock });
  assert.equal(next.used, 0);
  assert.equal(next.resetAt.toISOString(), "2026-11-24T00:00:00.000Z");
  // A refund after midnight goes back to the day the unit was taken from.
  await refundQuota(kv, units[1]!);
  assert.equal((await quotaStatus(kv, "u1", { clock })).used, 0);
});

Deno.test("GET /api/recommend/quota answers limit, used, remaining and resetAt with the headers", async () => {
  await using w = await recommendWorld();
  const before = await w.get("/api/recommend/quota");
  assert.equal(before.status, 200);
  assert.deepEqual(await before.json(), {
    limit: 20,
    used: 0,
    remaining: 20,
    resetAt: "2026-11-23T00:00:00.000Z",
  });
  assert.equal(before.headers.get("x-ratelimit-limit"), "20");
  assert.equal(before.headers.get("x-ratelimit-remaining"), "20");
  assert.equal(
    before.headers.get("x-ratelimit-reset"),
    String(Date.parse("2026-11-23T00:00:00Z") / 1000),
  );
  await w.get("/api/recommend");
  const after = await w.get("/api/recommend/quota");
  assert.deepEqual(await after.json(), {
    limit: 20,
    used: 1,
    remaining: 19,
    resetAt: "2026-11-23T00:00:00.000Z",
  });
  assert.equal(remaining(after), 19);
  const anonymous = await w.t.request("/api/recommend/quota");
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("x-ratelimit-limit"), "20");
});

Deno.test("the 21st generation of a UTC day answers 429 quota_exceeded; cached answers spend nothing", async () => {
  const clock = new FakeClock("2026-11-22T23:50:00Z");
  await using w = await recommendWorld({ clock });
  for (let i = 1; i <= 20; i++) {
    const res = await w.get(i === 1 ? "/api/recommend" : "/api/recommend?refresh=1");
    assert.equal(res.status, 200, `generation ${i}`);
    assert.equal(remaining(res), 20 - i);
    // A cached answer in between costs nothing.
    const cached = await w.get("/api/recommend");
    assert.equal((await cached.json()).cached, true);
    assert.equal(remaining(cached), 20 - i);
  }
  for (const path of ["/api/recommend?refresh=1", "/api/recommend?getNew=1"]) {
    const res = await w.get(path);
    assert.equal(res.status, 429, path);
    const body = await res.json();
    assert.equal(body.code, "quota_exceeded");
    assert.equal(body.status, 429);
    assert.equal(remaining(res), 0);
    assert.equal(res.headers.get("retry-after"), "600");
  }
  assert.equal(w.ai.requests.length, 20);
  // The stored set is still served while it is fresh.
  assert.equal((await (await w.get("/api/recommend")).json()).cached, true);

  clock.set("2026-11-23T00:00:00Z");
  const res = await w.get("/api/recommend?refresh=1");
  assert.equal(res.status, 200);
  assert.equal(remaining(res), 19);
  assert.equal(
    res.headers.get("x-ratelimit-reset"),
    String(Date.parse("2026-11-24T00:00:00Z") / 1000),
  );
});

Deno.test("a generation ending in 503 gives its unit back; one ending in 502 does not", async () => {
  await using w = await recommendWorld();
  w.ai.fallback = () => ({ status: 500, body: { error: { message: "down" } } });
  for (let i = 0; i < 25; i++) assert.equal((await w.get("/api/recommend")).status, 503);
  assert.equal((await (await w.get("/api/recommend/quota")).json()).used, 0);
  w.ai.fallback = () => ({ content: "no JSON here" });
  assert.equal((await w.get("/api/recommend")).status, 502);
  assert.equal((await (await w.get("/api/recommend/quota")).json()).used, 1);
});

Deno.test("10 concurrent GET /api/recommend for one user: exactly one generates, the others answer 409", async () => {
  await using w = await recommendWorld();
  const answer = modelLike(POOL);
  w.ai.fallback = (request) => ({ ...answer(request), delayMs: 300 });
  const responses = await Promise.all(Array.from({ length: 10 }, () => w.get("/api/recommend")));
  const statuses = responses.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
  for (const res of responses.filter((r) => r.status === 409)) {
    assert.equal((await res.json()).code, "generation_in_progress");
    assert.equal(res.headers.get("x-ratelimit-limit"), "20");
  }
  assert.equal(w.ai.requests.length, 1);
  const winner = responses.find((r) => r.status === 200)!;
  assert.equal((await winner.json()).cached, false);
  // Released when done: the next request is served.
  const next = await w.get("/api/recommend");
  assert.equal(next.status, 200);
  assert.equal((await next.json()).cached, true);
});

/** `kv` whose atomic commits reject while `fail` says so for the operation's calls. */
function kvFailing(kv: Kv, fail: (calls: string[]) => boolean): Kv {
  const bind = <T extends object>(target: T, p: string | symbol) => {
    const v = Reflect.get(target, p, target);
    return typeof v === "function" ? v.bind(target) : v;
  };
  return new Proxy(kv, {
    get(target, prop) {
      if (prop !== "atomic") return bind(target, prop);
      return () => {
        const op = target.atomic();
        const calls: string[] = [];
        const wrapped: KvAtomic = new Proxy(op, {
          get(o, p) {
            if (p === "commit" && fail(calls)) {
              return () => Promise.reject(new Error("kv unavailable"));
            }
            const v = bind(o, p);
            if (typeof v !== "function") return v;
            // The builder methods return the operation: keep returning the wrapper.
            return (...args: unknown[]) => {
              calls.push(String(p));
              const out = v(...args);
              return out === o ? wrapped : out;
            };
          },
        });
        return wrapped;
      };
    },
  });
}

Deno.test("a lock release that fails in KV does not fail the answer", async () => {
  await using w = await recommendWorld();
  // The lock's release is the only atomic delete on this path.
  const kv = kvFailing(w.t.kv, (calls) => calls.includes("delete"));
  const service = createRecommendService({ ...w.t.deps, kv }, {
    search: () => Promise.resolve({ results: [] }),
  });
  const result = await service.recommend(w.user.id);
  assert.equal(result.cached, false);
  assert.ok(result.recommendations.length >= 5);
  assert.ok(w.t.logs.some((l) => l.msg === "recommend lock release failed"));
});

Deno.test("a refund that fails in KV still answers the generation's own error", async () => {
  await using w = await recommendWorld();
  let down = false;
  w.ai.fallback = () => {
    // The unit is taken by now: from here on every KV write fails, the refund included.
    down = true;
    return { status: 500, body: { error: { message: "down" } } };
  };
  const kv = kvFailing(w.t.kv, () => down);
  const service = createRecommendService({ ...w.t.deps, kv }, {
    search: () => Promise.resolve({ results: [] }),
  });
  await assert.rejects(
    service.recommend(w.user.id),
    (e: { code?: string }) => e.code === "ai_unavailable",
  );
  assert.ok(w.t.logs.some((l) => l.msg === "quota refund failed"));
});
