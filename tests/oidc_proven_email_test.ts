/**
 * Proven addresses and the identity provider (docs/oidc.md, "Proven addresses"): a verified
 * email joins only an account whose address was proven; an unverified one never satisfies an
 * invite's email; an identity is found by (issuer, subject) whatever its email, on both stores.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { type Engine, ENGINES } from "./helpers/store.ts";
import { dance, SITE, siteClient } from "./helpers/oidc_dance.ts";
import { startIdp } from "./helpers/oidc_idp.ts";

const ADMIN = "proven-admin";

async function world(engine: Engine, env: Record<string, string> = {}) {
  const idp = await startIdp(`${SITE}/auth/v1/callback`);
  const t = await testApp({
    engine,
    env: {
      SITE_URL: SITE,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: "Authentik",
      ADMIN_TOKEN: ADMIN,
      ...env,
    },
  });
  t.clock.set(Date.now());
  return {
    idp,
    t,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await idp[Symbol.asyncDispose]();
    },
  };
}

/** A fresh address (a PostgreSQL test database outlives one run). */
const fresh = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

async function invite(t: TestApp, email?: string): Promise<string> {
  const res = await t.request("/api/admin/invites", {
    method: "POST",
    headers: { "x-admin-token": ADMIN, "content-type": "application/json" },
    body: JSON.stringify(email ? { email } : {}),
  });
  assert.equal(res.status, 201);
  return (await res.json()).code;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the same subject with a new email at the identity provider signs in as the same user, even when another issuer has an identity of that subject`, async () => {
    await using w = await world(engine, { SIGNUP: "invite" });
    const sub = `sub-${crypto.randomUUID()}`;
    // Another issuer's identity of the same subject (another provider, or the one before a move).
    const other = crypto.randomUUID();
    await w.t.store.query(
      `insert into auth.users (id, aud, role, email, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
      [other, fresh("other")],
    );
    await w.t.store.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider)
       values ($1, $2, $3::text::jsonb, 'oidc')`,
      [sub, other, JSON.stringify({ iss: "https://old-idp.example", sub })],
    );
    const first = fresh("nina");
    w.idp.accounts.set(sub, { email: first, email_verified: true, name: "Nina" });
    const sb = siteClient(w.t);
    const back = await dance(w.t, sb, { sub, inviteCode: await invite(w.t, first) });
    const { data, error } = await sb.auth.exchangeCodeForSession(back.searchParams.get("code")!);
    assert.equal(error, null);
    w.idp.accounts.set(sub, { email: fresh("nina-new"), email_verified: true });
    const sb2 = siteClient(w.t);
    const again = await dance(w.t, sb2, { sub });
    const code = again.searchParams.get("code");
    assert.ok(code, `signed in again, not ${again.searchParams.get("error_description")}`);
    const next = await sb2.auth.exchangeCodeForSession(code);
    assert.equal(next.data.user!.id, data.user!.id);
    // The other issuer's identity still belongs to its own user; the data are JSON objects.
    const owners = await w.t.store.query<{ user_id: string; iss: string }>(
      `select user_id::text as user_id, identity_data ->> 'iss' as iss from auth.identities
       where provider = 'oidc' and provider_id = $1 order by 2`,
      [sub],
    );
    assert.deepEqual(
      owners.map((o) => [o.iss, o.user_id]).sort(),
      [
        ["https://old-idp.example", other],
        [w.idp.issuer, data.user!.id],
      ].sort(),
    );
    const [user] = await w.t.store.query<{ name: string }>(
      "select raw_user_meta_data ->> 'name' as name from auth.users where id = $1",
      [data.user!.id],
    );
    assert.equal(user.name, "Nina");
  });
}
