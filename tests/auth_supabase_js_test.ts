/**
 * The real supabase-js client against a running server of the built-in provider: what the
 * website (and any Supabase client) does, unchanged.
 */
import assert from "node:assert/strict";
import { AuthApiError, createClient } from "@supabase/supabase-js";
import { systemClock } from "../lib/core/clock.ts";
import { type TestApp, testApp } from "./helpers/app.ts";

interface Running extends AsyncDisposable {
  baseUrl: string;
  t: TestApp;
}

// The issuer hangs off SITE_URL, so the server listens first and the app is built for its URL.
async function runningServer(): Promise<Running> {
  let handle: ((req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>) | null =
    null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => handle ? handle(req, info) : new Response("starting", { status: 503 }),
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  // supabase-js checks expiry against the wall clock, so the server uses it too.
  const t = await testApp({ env: { SITE_URL: baseUrl }, clock: systemClock });
  handle = (req, info) => t.app.fetch(req, info);
  return {
    baseUrl,
    t,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await t[Symbol.asyncDispose]();
    },
  };
}

function client(baseUrl: string) {
  return createClient(baseUrl, "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

Deno.test("supabase-js signs up (via /api/auth/signup), signs in, reads the user, refreshes and signs out", async () => {
  await using s = await runningServer();
  const email = "Reader@Example.com";
  const password = "correct horse battery";
  const signup = await fetch(`${s.baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signup.status, 201);
  const created = await signup.json();
  assert.equal(created.success, true);
  assert.equal(created.user.email, "reader@example.com");

  const supabase = client(s.baseUrl);
  const signIn = await supabase.auth.signInWithPassword({ email, password });
  assert.equal(signIn.error, null);
  const session = signIn.data.session!;
  assert.equal(signIn.data.user?.id, created.user.id);
  assert.equal(session.token_type, "bearer");
  assert.equal(session.expires_in, 3600);

  const got = await supabase.auth.getUser();
  assert.equal(got.error, null);
  assert.equal(got.data.user?.id, created.user.id);
  assert.equal(got.data.user?.email, "reader@example.com");

  const watched = await fetch(`${s.baseUrl}/api/watched`, {
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  assert.equal(watched.status, 200);
  await watched.body?.cancel();

  const refreshed = await supabase.auth.refreshSession();
  assert.equal(refreshed.error, null);
  assert.notEqual(refreshed.data.session?.refresh_token, session.refresh_token);
  assert.equal(refreshed.data.user?.id, created.user.id);

  const out = await supabase.auth.signOut();
  assert.equal(out.error, null);
  const after = await fetch(`${s.baseUrl}/api/watched`, {
    headers: { authorization: `Bearer ${refreshed.data.session!.access_token}` },
  });
  assert.equal(after.status, 401);
  await after.body?.cancel();
  const reuse = await client(s.baseUrl).auth.refreshSession({
    refresh_token: refreshed.data.session!.refresh_token,
  });
  assert.ok(reuse.error instanceof AuthApiError);
  assert.equal(reuse.error.status, 400);
});

Deno.test("supabase-js reports a wrong password as its usual AuthApiError (400, invalid_credentials)", async () => {
  await using s = await runningServer();
  const res = await fetch(`${s.baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "someone@example.com", password: "the right one" }),
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
  const supabase = client(s.baseUrl);
  for (
    const [email, password] of [
      ["someone@example.com", "the wrong one"],
      ["nobody@example.com", "the right one"],
    ]
  ) {
    const { data, error } = await supabase.auth.signInWithPassword({ email, password });
    assert.ok(error instanceof AuthApiError, `${email}: ${error}`);
    assert.equal(error.status, 400);
    assert.equal(error.code, "invalid_credentials");
    assert.equal(error.message, "Invalid login credentials");
    assert.equal(data.session, null);
  }
});
