/**
 * Personal access tokens (docs/connections.md): made, shown once, kept as a hash, listed with
 * their last use, revoked; a Bearer credential on the API with its scope, its expiry, and never
 * where tokens, connections or the account are managed, nor on /auth/v1.
 */
import assert from "node:assert/strict";
import { MAX_TOKENS } from "../lib/identity/personal_tokens/mod.ts";
import { testApp } from "./helpers/app.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { signIn } from "./helpers/auth_requests.ts";
import { answer, codeAt, enrolled, passwordSession } from "./helpers/mfa.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function post(user: TestUser, body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

function bearer(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } };
}

const json = { "content-type": "application/json" };

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/tokens shows the value once and keeps only its SHA-256`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-25T10:00:00.000Z");
    const u = await createUser(t.deps);
    const res = await t.request(
      "/api/tokens",
      post(u, { name: " Letterboxd sync ", scope: "read" }),
    );
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const made = await res.json();
    assert.match(made.token, /^mvt_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual({ ...made, id: "", token: "" }, {
      id: "",
      name: "Letterboxd sync",
      scope: "read",
      token: "",
      createdAt: "2026-11-25T10:00:00.000Z",
      expiresAt: null,
      lastUsedAt: null,
    });
    const stored = await t.store.query<Record<string, unknown>>(
      "select * from public.user_api_tokens where user_id = $1",
      [u.id],
    );
    assert.equal(stored.length, 1);
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(made.token))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    assert.equal(stored[0].token_hash, digest);
    assert.ok(!JSON.stringify(stored).includes(made.token.slice(4)), "the value is not stored");
    // Listed without its value.
    const list = await (await t.request("/api/tokens", { headers: u.headers })).json();
    assert.deepEqual(list.tokens.map((x: Record<string, unknown>) => Object.keys(x).sort()), [
      ["createdAt", "expiresAt", "id", "lastUsedAt", "name", "scope"],
    ]);
    // Never in a log line, not even the request's.
    await (await t.request("/api/watched", bearer(made.token))).body?.cancel();
    assert.ok(!JSON.stringify(t.logs).includes(made.token.slice(4)));
  });

  Deno.test(`[${engine}] a read token reads the lists, a write on it answers 403 insufficient_scope`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const read = (await (await t.request("/api/tokens", post(u, { name: "r", scope: "read" })))
      .json()).token;
    const write = (await (await t.request("/api/tokens", post(u, { name: "w", scope: "write" })))
      .json()).token;
    const add = { method: "POST", headers: json, body: JSON.stringify({ catalogId: 603 }) };
    const refused = await problem(
      await t.request("/api/watched", bearer(read, add)),
      403,
      "insufficient_scope",
    );
    assert.match(refused.detail, /only read/);
    assert.equal((await t.request("/api/watched", bearer(write, add))).status, 200);
    const listed = await t.request("/api/watched", bearer(read));
    assert.equal(listed.status, 200);
    assert.deepEqual((await listed.json()).movies.map((m: { catalogId: number }) => m.catalogId), [
      603,
    ]);
    // The token acts for its owner only: another user's list stays theirs.
    const other = await createUser(t.deps);
    const theirs = await (await t.request("/api/watched", { headers: other.headers })).json();
    assert.deepEqual(theirs.movies, []);
  });

  Deno.test(`[${engine}] tokens, connections and the account are refused to a token, /auth/v1 too`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const token = (await (await t.request("/api/tokens", post(u, { name: "w", scope: "write" })))
      .json()).token;
    await problem(await t.request("/api/tokens", bearer(token)), 403, "personal_token_not_allowed");
    await problem(
      await t.request("/api/tokens", bearer(token, post(u, { name: "x", scope: "write" }))),
      403,
      "personal_token_not_allowed",
      "a token cannot make a token",
    );
    await problem(
      await t.request(
        "/api/account",
        bearer(token, {
          method: "DELETE",
          headers: json,
          body: JSON.stringify({ confirm: "delete my account" }),
        }),
      ),
      403,
      "personal_token_not_allowed",
    );
    // GoTrue's own answer to a Bearer value that is not its JWT: never a session there.
    const user = await t.request("/auth/v1/user", bearer(token));
    assert.equal(user.status, 403);
    assert.equal((await user.json()).error_code, "bad_jwt");
  });

  Deno.test(`[${engine}] a revoked token is 401 at once; another user cannot revoke it`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const made = await (await t.request("/api/tokens", post(u, { name: "w", scope: "write" })))
      .json();
    const other = await createUser(t.deps);
    await problem(
      await t.request(`/api/tokens/${made.id}`, { method: "DELETE", headers: other.headers }),
      404,
      "not_found",
    );
    assert.equal((await t.request("/api/watched", bearer(made.token))).status, 200);
    const revoked = await t.request(`/api/tokens/${made.id}`, {
      method: "DELETE",
      headers: u.headers,
    });
    assert.equal(revoked.status, 204);
    const body = await problem(
      await t.request("/api/watched", bearer(made.token)),
      401,
      "unauthorized",
    );
    assert.match(body.detail, /unknown or revoked/);
    await problem(
      await t.request("/api/tokens/not-a-uuid", { method: "DELETE", headers: u.headers }),
      404,
      "not_found",
    );
  });

  Deno.test(`[${engine}] a token expires after its days; last use is noted at most once a minute`, async () => {
    await using t = await testApp({ engine });
    const clock = t.clock;
    clock.set("2026-11-25T10:00:00.000Z");
    const u = await createUser(t.deps);
    const made = await (await t.request(
      "/api/tokens",
      post(u, { name: "short", scope: "read", expiresInDays: 1 }),
    )).json();
    assert.equal(made.expiresAt, "2026-11-26T10:00:00.000Z");
    const lastUsed = async () =>
      (await (await t.request("/api/tokens", { headers: u.headers })).json()).tokens[0].lastUsedAt;
    await (await t.request("/api/watched", bearer(made.token))).body?.cancel();
    assert.equal(await lastUsed(), "2026-11-25T10:00:00.000Z");
    clock.advance(30_000);
    await (await t.request("/api/watched", bearer(made.token))).body?.cancel();
    assert.equal(await lastUsed(), "2026-11-25T10:00:00.000Z", "not rewritten within the minute");
    clock.advance(30_000);
    await (await t.request("/api/watched", bearer(made.token))).body?.cancel();
    assert.equal(await lastUsed(), "2026-11-25T10:01:00.000Z");
    clock.set("2026-11-26T09:59:59.999Z");
    assert.equal((await t.request("/api/watched", bearer(made.token))).status, 200);
    clock.set("2026-11-26T10:00:00.000Z");
    const expired = await problem(
      await t.request("/api/watched", bearer(made.token)),
      401,
      "unauthorized",
    );
    assert.match(expired.detail, /expired/);
  });

  Deno.test(`[${engine}] POST /api/tokens: at most ${MAX_TOKENS}, and each field checked at its edge`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    for (
      const body of [
        { name: "", scope: "read" },
        { name: "x".repeat(61), scope: "read" },
        { name: "x", scope: "admin" },
        { name: "x", scope: "read", expiresInDays: 0 },
        { name: "x", scope: "read", expiresInDays: 366 },
        { name: "x", scope: "read", expiresInDays: 1.5 },
        { name: "x", scope: "read", extra: true },
      ]
    ) {
      await problem(
        await t.request("/api/tokens", post(u, body)),
        400,
        "invalid_body",
        JSON.stringify(body),
      );
    }
    const edge = await t.request(
      "/api/tokens",
      post(u, { name: "x".repeat(60), scope: "read", expiresInDays: 365 }),
    );
    assert.equal(edge.status, 201);
    await edge.body?.cancel();
    for (let i = 1; i < MAX_TOKENS; i++) {
      const res = await t.request("/api/tokens", post(u, { name: `t${i}`, scope: "read" }));
      assert.equal(res.status, 201);
      await res.body?.cancel();
    }
    await problem(
      await t.request("/api/tokens", post(u, { name: "one too many", scope: "read" })),
      400,
      "too_many_tokens",
    );
    const list = await (await t.request("/api/tokens", { headers: u.headers })).json();
    assert.equal(list.tokens.length, MAX_TOKENS);
  });
}

Deno.test("a malformed or unknown mvt_ token is 401 without a store lookup of its shape", async () => {
  await using t = await testApp();
  for (const token of ["mvt_", "mvt_short", `mvt_${"A".repeat(43)}`]) {
    await problem(await t.request("/api/mylist", bearer(token)), 401, "unauthorized", token);
  }
});

Deno.test("with a verified second factor, tokens need an aal2 session: 403 mfa_required at aal1", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const { factorId, secret, aal2 } = await enrolled(t, token);
  t.clock.advance(60_000);
  const later = await signIn(t, email, password);
  const aal1 = { authorization: `Bearer ${later.access_token}` };
  await problem(await t.request("/api/tokens", { headers: aal1 }), 403, "mfa_required");
  await problem(
    await t.request("/api/tokens", {
      method: "POST",
      headers: { ...aal1, ...json },
      body: JSON.stringify({ name: "x", scope: "read" }),
    }),
    403,
    "mfa_required",
  );
  const raised =
    await (await answer(t, later.access_token, factorId, codeAt(secret, t.clock.now())))
      .json();
  const made = await t.request("/api/tokens", {
    method: "POST",
    headers: { authorization: `Bearer ${raised.access_token}`, ...json },
    body: JSON.stringify({ name: "x", scope: "read" }),
  });
  assert.equal(made.status, 201);
  await made.body?.cancel();
  assert.ok(aal2.access_token);
});
