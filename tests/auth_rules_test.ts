/** The identity rules in lib/identity/auth, without HTTP: signup input, windows, passwords, JWKS cache. */
import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { verifyAccessToken } from "../lib/identity/auth/access_token.ts";
import { limitSubject } from "../lib/identity/auth/limit_subject.ts";
import { wantsVersionedErrors } from "../lib/http/gotrue_response.ts";
import { hashPassword, verifyPassword } from "../lib/identity/auth/passwords.ts";
import {
  giveBack,
  LOGIN_PER_PAIR,
  takeAttempt,
  type WindowLimit,
} from "../lib/identity/auth/rate_limit.ts";
import { parseSignup } from "../lib/identity/auth/signup.ts";
import { readJson } from "../lib/http/read_body.ts";
import { remoteJwks } from "../lib/identity/auth/supabase_jwks.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { Problem } from "../lib/core/problem.ts";

// A parsed JSON body, as readJson (lib/http/read_body.ts) hands it to the service.
const body = (value: unknown) => value;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof Problem);
    return error.code;
  }
  return "none";
}

Deno.test("parseSignup trims and lower-cases the email and reports which field is wrong", async () => {
  assert.deepEqual(parseSignup(body({ email: " A.B@Example.ORG", password: "12345678" })), {
    email: "a.b@example.org",
    password: "12345678",
  });
  assert.equal(
    parseSignup(body({ email: "a@b.co", password: "12345678", captchaToken: "tok" })).captchaToken,
    "tok",
  );
  // A body that is not JSON never reaches the rules: the one body reader refuses it.
  const notJson = new Request("http://x/", { method: "POST", body: "{" });
  assert.equal(await readJson(notJson).then(() => "none", (e: Problem) => e.code), "invalid_body");
  assert.equal(code(() => parseSignup(body("text"))), "invalid_body");
  assert.equal(
    code(() => parseSignup(body({ email: "a@", password: "12345678" }))),
    "invalid_email",
  );
  assert.equal(
    code(() => parseSignup(body({ email: "a@b.co", password: " 1234 " }))),
    "invalid_password",
  );
  // Passwords are not trimmed: spaces count.
  assert.equal(parseSignup(body({ email: "a@b.co", password: "  1234  " })).password, "  1234  ");
  // 8 characters of 4 bytes each are 32 bytes: fine. 19 of them are 76 bytes: too long for bcrypt.
  assert.equal(
    parseSignup(body({ email: "a@b.co", password: "😀".repeat(8) })).password.length,
    16,
  );
  assert.equal(
    code(() => parseSignup(body({ email: "a@b.co", password: "😀".repeat(19) }))),
    "invalid_password",
  );
  // JSON can carry a lone surrogate, which Supabase (Go) would hash as U+FFFD.
  assert.equal(
    code(() => parseSignup(body({ email: "a@b.co", password: "abcdefg\ud800" }))),
    "invalid_password",
  );
});

Deno.test("takeAttempt counts per subject in fixed windows of the injected clock", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00Z");
  using kv = await Deno.openKv(":memory:");
  const limit: WindowLimit = { name: "test", limit: 3, windowMs: 60_000 };
  const take = async (subject: string) => {
    const attempt = await takeAttempt(kv, [{ limit, subject }], { clock });
    return attempt.allowed ? { allowed: true } : attempt;
  };
  for (let i = 0; i < 3; i++) assert.deepEqual(await take("a"), { allowed: true });
  clock.advance(15_000);
  assert.deepEqual(await take("a"), { allowed: false, retryAfterS: 45 });
  assert.deepEqual(await take("b"), { allowed: true });
  clock.advance(45_000);
  assert.deepEqual(await take("a"), { allowed: true }, "a new window");

  // Two limits at once: refused (and not counted) when either is full.
  const wide: WindowLimit = { name: "wide", limit: 100, windowMs: 60_000 };
  const both = (subject: string) =>
    takeAttempt(kv, [{ limit, subject }, { limit: wide, subject: "same-address" }], { clock });
  for (let i = 0; i < 3; i++) assert.equal((await both("c")).allowed, true);
  assert.equal((await both("c")).allowed, false);
  const keys: string[] = [];
  // Every key in the KV, so the check holds whatever the counters' keys are named.
  for await (const entry of kv.list({ prefix: [] })) {
    keys.push(JSON.stringify(entry.key));
  }
  assert.ok(keys.length > 0);
  assert.ok(keys.every((k) => !k.includes("same-address")), "subjects are hashed in KV");
});

Deno.test("takeAttempt lets exactly the limit through when attempts race", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const results = await Promise.all(
    Array.from(
      { length: 25 },
      () => takeAttempt(kv, [{ limit: LOGIN_PER_PAIR, subject: "x@example.com" }], { clock }),
    ),
  );
  assert.equal(results.filter((r) => r.allowed).length, LOGIN_PER_PAIR.limit);
});

Deno.test("giveBack uncounts one attempt in some windows, clears others and keeps the rest", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const pair: WindowLimit = { name: "pair", limit: 3, windowMs: 60_000 };
  const email: WindowLimit = { name: "email", limit: 3, windowMs: 60_000 };
  const address: WindowLimit = { name: "address", limit: 3, windowMs: 60_000 };
  const take = () =>
    takeAttempt(kv, [
      { limit: pair, subject: "p" },
      { limit: email, subject: "e" },
      { limit: address, subject: "a" },
    ], { clock });
  await take();
  const second = await take();
  assert.ok(second.allowed);
  await giveBack(kv, second, { clear: [pair], uncount: [email] });
  const counts = async () => {
    const out: number[] = [];
    for await (const e of kv.list<number>({ prefix: ["auth_rate"] })) out.push(e.value);
    return out.sort();
  };
  // pair cleared (gone), email 2 -> 1, address kept at 2.
  assert.deepEqual(await counts(), [1, 2]);
});

Deno.test("per-address limits count an IPv6 address by its /64 and a mapped IPv4 as IPv4", () => {
  const net = "2001:db8:0:42::/64";
  for (const a of ["2001:db8:0:42::1", "2001:DB8::42:ffff:1:2:3", "2001:db8:0:42:a:b:c:d%eth0"]) {
    assert.equal(limitSubject(a), net, a);
  }
  assert.notEqual(limitSubject("2001:db8:0:43::1"), net);
  assert.equal(limitSubject("::ffff:192.0.2.1"), "192.0.2.1");
  assert.equal(limitSubject("::ffff:c000:201"), "192.0.2.1");
  assert.equal(limitSubject("::1"), "0:0:0:0::/64");
  for (const same of ["192.0.2.1", "unknown", "not:an:address:x", "1:2:3:4:5:6:7:8:9"]) {
    assert.equal(limitSubject(same), same);
  }
});

Deno.test("passwords are bcrypt cost 10 and a missing hash never verifies", async () => {
  const hash = await hashPassword("secret-pass");
  assert.match(hash, /^\$2[aby]\$10\$.{53}$/);
  assert.equal(await verifyPassword("secret-pass", hash), true);
  assert.equal(await verifyPassword("secret-pasS", hash), false);
  assert.equal(await verifyPassword("secret-pass", null), false);
  assert.equal(await verifyPassword("", "not-a-hash"), false);
});

Deno.test("the versioned GoTrue error shape is chosen by a 2024-01-01 or later API version", () => {
  const req = (v?: string) =>
    new Request("http://x/", { headers: v ? { "x-supabase-api-version": v } : {} });
  assert.equal(wantsVersionedErrors(req("2024-01-01")), true);
  assert.equal(wantsVersionedErrors(req("2025-06-30")), true);
  assert.equal(wantsVersionedErrors(req("2023-12-31")), false);
  assert.equal(wantsVersionedErrors(req("yesterday")), false);
  assert.equal(wantsVersionedErrors(req()), false);
});

Deno.test("remoteJwks caches keys, refreshes them after 10 minutes and keeps stale keys on failure", async () => {
  const clock = new FakeClock();
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  let failing = false;
  const fetcher = ((_url: string) =>
    Promise.resolve(
      failing ? new Response("down", { status: 503 }) : Response.json({ keys: [jwk] }),
    )) as typeof fetch;
  const jwks = remoteJwks("http://project/auth/v1/.well-known/jwks.json", {
    fetch: fetcher,
    clock,
  });
  const issuer = "http://project/auth/v1";
  const token = () =>
    new SignJWT({ role: "authenticated" }).setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setSubject("u1").setAudience("authenticated").setIssuer(issuer)
      .setIssuedAt(Math.floor(clock.now() / 1000)).setExpirationTime(
        Math.floor(clock.now() / 1000) + 3600,
      )
      .sign(privateKey);
  const verify = async () =>
    (await verifyAccessToken(jwks.getKey, await token(), { issuer, clock, algorithms: ["ES256"] }))
      .id;

  assert.equal(await verify(), "u1");
  assert.equal(await verify(), "u1");
  assert.equal(jwks.fetches, 1);
  clock.advance(10 * 60_000);
  failing = true;
  assert.equal(await verify(), "u1", "stale keys still verify while the project is down");
  assert.equal(jwks.fetches, 2);
  assert.equal(await verify(), "u1");
  assert.equal(jwks.fetches, 2, "and the failed refresh is not retried within the minute");
  failing = false;
  clock.advance(60_000);
  assert.equal(await verify(), "u1");
  assert.equal(jwks.fetches, 3);
});
