/** POST /api/auth/signup with a captcha configured: the verifier's answer decides, its failure is 503. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { signup } from "./helpers/auth_requests.ts";
import { problem } from "./helpers/problems.ts";

interface FakeVerifier extends AsyncDisposable {
  url: string;
  forms: URLSearchParams[];
}

// Turnstile's and hCaptcha's siteverify: a form POST answered with {success, error-codes}.
function startVerifier(): FakeVerifier {
  const forms: URLSearchParams[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    forms.push(form);
    const response = form.get("response");
    if (response === "explode") return new Response("oops", { status: 500 });
    const success = form.get("secret") === "captcha-secret" && response === "pass";
    return Response.json({
      success,
      "error-codes": success ? [] : ["invalid-input-response"],
      ...(success ? { challenge_ts: "2026-11-22T12:00:00.000Z", hostname: "localhost" } : {}),
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/siteverify`,
    forms,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("with CAPTCHA_SECRET, signup needs a token the verifier accepts", async () => {
  await using verifier = startVerifier();
  await using t = await testApp({
    env: {
      CAPTCHA_SECRET: "captcha-secret",
      CAPTCHA_SITE_KEY: "site-key",
      CAPTCHA_VERIFY_URL: verifier.url,
      CLIENT_IP_HEADER: "x-forwarded-for",
    },
  });
  const body = { email: "human@example.com", password: "popcorn-matinee-42" };
  await problem(await signup(t, body), 400, "captcha_failed", "missing");
  assert.equal(verifier.forms.length, 0, "no token, no call");
  await problem(
    await signup(t, { ...body, captchaToken: "fail" }),
    400,
    "captcha_failed",
    "rejected",
  );
  await problem(
    await signup(t, { ...body, captchaToken: "explode" }),
    503,
    "captcha_unavailable",
    "verifier error",
  );
  const res = await signup(t, { ...body, captchaToken: "pass" }, {
    "x-forwarded-for": "203.0.113.7",
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
  const form = verifier.forms.at(-1)!;
  assert.equal(form.get("secret"), "captcha-secret");
  assert.equal(form.get("response"), "pass");
  assert.equal(form.get("remoteip"), "203.0.113.7");
});

Deno.test("an unreachable captcha verifier is 503, not the user's fault", async () => {
  await using t = await testApp({
    env: { CAPTCHA_SECRET: "captcha-secret", CAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify" },
  });
  const res = await signup(t, {
    email: "a@example.com",
    password: "popcorn-matinee-42",
    captchaToken: "x",
  });
  const body = await problem(res, 503, "captcha_unavailable");
  assert.doesNotMatch(JSON.stringify(body), /captcha-secret/);
});
