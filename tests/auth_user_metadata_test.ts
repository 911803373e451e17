/**
 * JSON written into auth.users and auth.identities stays JSON objects on both stores: a string
 * parameter cast straight to jsonb is a JSON string on PostgreSQL (postgres.js encodes it
 * again), so these statements cast through text.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { signIn, signUp, VERSIONED } from "./helpers/auth_requests.ts";
import { ENGINES } from "./helpers/store.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] PUT /auth/v1/user with data keeps user_metadata an object holding it`, async () => {
    await using t = await testApp({ engine });
    const email = `meta-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const id = await signUp(t, email, "popcorn-matinee-42");
    const session = await signIn(t, email, "popcorn-matinee-42");
    const res = await t.request("/auth/v1/user", {
      method: "PUT",
      headers: { ...VERSIONED, authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ data: { theme: "dark" } }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).user_metadata, { theme: "dark" });
    const [row] = await t.store.query<{ kind: string; theme: string }>(
      `select jsonb_typeof(raw_user_meta_data) as kind, raw_user_meta_data ->> 'theme' as theme
       from auth.users where id = $1`,
      [id],
    );
    assert.deepEqual({ ...row }, { kind: "object", theme: "dark" });
  });
}
