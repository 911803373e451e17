import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { verifiedTokens } from "../lib/identity/auth/verified_tokens.ts";

const claims = (expiresAt: number) => ({ id: "u", email: "u@example.test", expiresAt });

Deno.test("a verified token is remembered until its exp, by the injected clock", () => {
  const clock = new FakeClock("2026-11-22T12:00:00Z");
  const memo = verifiedTokens(clock);
  const exp = clock.now() / 1000 + 60;
  memo.set("t", claims(exp));
  assert.equal(memo.get("t")?.id, "u");
  clock.advance(59_999);
  assert.equal(memo.get("t")?.id, "u");
  clock.advance(1);
  assert.equal(memo.get("t"), undefined);
  assert.equal(memo.get("t"), undefined);
});

Deno.test("the memo keeps at most max tokens, dropping the least recently used", () => {
  const clock = new FakeClock();
  const memo = verifiedTokens(clock, { max: 2 });
  const exp = clock.now() / 1000 + 3600;
  memo.set("a", claims(exp));
  memo.set("b", claims(exp));
  memo.get("a");
  memo.set("c", claims(exp));
  assert.ok(memo.get("a"));
  assert.equal(memo.get("b"), undefined);
  assert.ok(memo.get("c"));
});
