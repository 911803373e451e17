/**
 * Supabase's two formats of API key (docs/identity.md, "Supabase mode"): the new
 * `sb_publishable_...`/`sb_secret_...` keys and the legacy `anon`/`service_role` JWTs, under the new
 * variable names (SUPABASE_PUBLISHABLE_KEY, SUPABASE_SECRET_KEY) and the old ones, against a fake
 * project that checks each key where Supabase does.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { FakeClock } from "@/lib/core/clock.ts";
import { ConfigError, loadConfig } from "@/lib/core/config.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeSupabase } from "./helpers/fake_supabase.ts";

const NAMES = {
  new: { pub: "SUPABASE_PUBLISHABLE_KEY", secret: "SUPABASE_SECRET_KEY" },
  old: { pub: "SUPABASE_ANON_KEY", secret: "SUPABASE_SERVICE_ROLE_KEY" },
} as const;

for (const format of ["new", "legacy"] as const) {
  for (const names of ["new", "old"] as const) {
    Deno.test(`Supabase mode with ${format} keys under the ${names} names signs up, checks tokens and deletes accounts`, async () => {
      const clock = new FakeClock();
      await using fake = await startFakeSupabase({ clock, keys: format });
      await using t = await testApp({
        clock,
        env: {
          SUPABASE_URL: fake.url,
          [NAMES[names].pub]: fake.anonKey,
          [NAMES[names].secret]: fake.serviceRoleKey,
        },
      });
      assert.equal(format === "new", fake.serviceRoleKey.startsWith("sb_secret_"));

      // Signup through the admin API: the secret key in apikey; as the Bearer token only when it
      // is a legacy JWT (the fake refuses a new key there, and a legacy key without it).
      const res = await t.request("/api/auth/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: `${format}-${names}@example.com`,
          password: "popcorn-matinee-42",
        }),
      });
      assert.equal(res.status, 201);
      const created = (await res.json()).user;
      const call = fake.requests.find((r) => r.path === "/auth/v1/admin/users")!;
      assert.equal(call.headers.apikey, fake.serviceRoleKey);
      assert.equal(
        call.headers.authorization,
        format === "legacy" ? `Bearer ${fake.serviceRoleKey}` : undefined,
      );

      // A token JWKS cannot check is asked about with the publishable (anon) key.
      const user = { id: created.id, email: created.email };
      const legacyToken = await fake.sign(user, { alg: "HS256" });
      const watched = await t.request("/api/watched", {
        headers: { authorization: `Bearer ${legacyToken}` },
      });
      assert.equal(watched.status, 200);
      await watched.body?.cancel();
      const asked = fake.requests.find((r) => r.path === "/auth/v1/user")!;
      assert.equal(asked.headers.apikey, fake.anonKey);

      // The pages hand supabase-js the publishable key, never the secret one.
      const page = await (await t.request("/")).text();
      assert.ok(page.includes(`<meta name="supabase-anon-key" content="${fake.anonKey}"/>`));
      assert.ok(!page.includes(fake.serviceRoleKey));

      // Account deletion through the admin API, with the same headers as signup.
      await t.store.query(
        "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
        [user.id, user.email],
      );
      const gone = await t.request("/api/account", {
        method: "DELETE",
        headers: {
          authorization: `Bearer ${await fake.sign(user)}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ confirm: "delete my account" }),
      });
      assert.equal(gone.status, 204);
      await gone.body?.cancel();
      assert.equal(fake.users.has(user.id), false);
    });
  }
}

Deno.test("SUPABASE_PUBLISHABLE_KEY and SUPABASE_SECRET_KEY win over the old names, and a key in the wrong variable is refused", async () => {
  const hmac = new TextEncoder().encode("legacy-jwt-secret-with-at-least-32-characters");
  const legacy = (role: string) =>
    new SignJWT({ iss: "supabase", role }).setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(hmac);
  const url = { SUPABASE_URL: "https://project.supabase.co" };
  const both = loadConfig({
    ...url,
    SUPABASE_PUBLISHABLE_KEY: "sb_publishable_new",
    SUPABASE_ANON_KEY: await legacy("anon"),
    SUPABASE_SECRET_KEY: "sb_secret_new",
    SUPABASE_SERVICE_ROLE_KEY: await legacy("service_role"),
  }).supabase;
  assert.deepEqual(both, {
    url: "https://project.supabase.co",
    anonKey: "sb_publishable_new",
    serviceRoleKey: "sb_secret_new",
  });
  // The secret key is optional (signup and account deletion then answer 503).
  assert.equal(
    loadConfig({ ...url, SUPABASE_PUBLISHABLE_KEY: "sb_publishable_new" }).supabase?.serviceRoleKey,
    undefined,
  );

  const refused: [Record<string, string>, RegExp][] = [
    [{ SUPABASE_PUBLISHABLE_KEY: "sb_secret_oops" }, /SUPABASE_PUBLISHABLE_KEY holds a secret key/],
    [{ SUPABASE_ANON_KEY: await legacy("service_role") }, /SUPABASE_ANON_KEY holds a secret key/],
    [
      { SUPABASE_ANON_KEY: "sb_publishable_x", SUPABASE_SECRET_KEY: "sb_publishable_y" },
      /SUPABASE_SECRET_KEY holds a publishable key/,
    ],
    [
      { SUPABASE_ANON_KEY: "sb_publishable_x", SUPABASE_SERVICE_ROLE_KEY: await legacy("anon") },
      /SUPABASE_SERVICE_ROLE_KEY holds a publishable key/,
    ],
    [{ SUPABASE_SECRET_KEY: "sb_secret_x" }, /SUPABASE_PUBLISHABLE_KEY \(or SUPABASE_ANON_KEY\)/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => loadConfig({ ...url, ...env }), (e: Error) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, message);
      // Never the key itself in the message (it lands in logs).
      for (const v of Object.values(env)) assert.ok(!e.message.includes(v));
      return true;
    });
  }
});
