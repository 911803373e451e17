/** supabase-js `auth.mfa` against a running server of the built-in provider, unchanged. */
import assert from "node:assert/strict";
import { createClient } from "@supabase/supabase-js";
import { systemClock } from "../lib/core/clock.ts";
import { testApp } from "./helpers/app.ts";
import { codeAt } from "./helpers/mfa.ts";

Deno.test("supabase-js mfa.enroll, challenge, verify, listFactors, getAuthenticatorAssuranceLevel and unenroll work unchanged", async () => {
  let handle: ((req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>) | null =
    null;
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => handle ? handle(req, info) : new Response("starting", { status: 503 }),
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  await using t = await testApp({ env: { SITE_URL: baseUrl }, clock: systemClock });
  handle = (req, info) => t.app.fetch(req, info);
  const email = "mfa-js@example.com";
  const password = "correct horse battery";
  const made = await fetch(`${baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(made.status, 201);
  await made.body?.cancel();
  const supabase = createClient(baseUrl, "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  assert.equal((await supabase.auth.signInWithPassword({ email, password })).error, null);

  const enrolled = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
  assert.equal(enrolled.error, null);
  const factor = enrolled.data!;
  assert.equal(factor.type, "totp");
  assert.match(factor.totp.qr_code, /^data:image\/svg\+xml;utf-8,<svg/);

  const challenge = await supabase.auth.mfa.challenge({ factorId: factor.id });
  assert.equal(challenge.error, null);
  const verified = await supabase.auth.mfa.verify({
    factorId: factor.id,
    challengeId: challenge.data!.id,
    code: codeAt(factor.totp.secret, Date.now()),
  });
  assert.equal(verified.error, null);

  const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(level.error, null);
  assert.equal(level.data!.currentLevel, "aal2");
  assert.equal(level.data!.nextLevel, "aal2");
  const factors = await supabase.auth.mfa.listFactors();
  assert.equal(factors.error, null);
  assert.deepEqual(factors.data!.totp.map((f) => [f.id, f.status]), [[factor.id, "verified"]]);

  // A new sign-in is aal1 with aal2 next: what the site's code step reads.
  const second = createClient(baseUrl, "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  assert.equal((await second.auth.signInWithPassword({ email, password })).error, null);
  const pending = await second.auth.mfa.getAuthenticatorAssuranceLevel();
  assert.equal(pending.data!.currentLevel, "aal1");
  assert.equal(pending.data!.nextLevel, "aal2");
  const wrong = await second.auth.mfa.challengeAndVerify({ factorId: factor.id, code: "12345a" });
  assert.equal(wrong.error?.code, "mfa_verification_failed");
  const raised = await second.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: codeAt(factor.totp.secret, Date.now() + 30_000),
  });
  assert.equal(raised.error, null);

  const gone = await second.auth.mfa.unenroll({ factorId: factor.id });
  assert.equal(gone.error, null);
  assert.equal(gone.data!.id, factor.id);
  assert.deepEqual((await second.auth.mfa.listFactors()).data!.all, []);
});
