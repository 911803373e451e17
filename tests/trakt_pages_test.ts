/**
 * The website's Trakt pages (docs/trakt.md, "Sign-in"): /account/connections lists the signed-in
 * apps and the user's own apps (no secret in the page), /activate takes the code from its link.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

Deno.test("/account/connections lists the signed-in Trakt apps and the user's own apps, never a secret", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const made = await (await t.request(
    "/api/trakt/apps",
    post({ name: "Home sync", redirectUris: ["https://sync.example/cb"] }, u.headers),
  )).json();
  const codes = await (await t.request(
    "/trakt/oauth/device/code",
    post({ client_id: "player-client" }),
  )).json();
  await (await t.request(
    "/api/trakt/activate",
    post({ code: codes.user_code, approve: true }, u.headers),
  )).body?.cancel();
  const granted = await t.request(
    "/trakt/oauth/device/token",
    post({ code: codes.device_code, client_id: "player-client" }),
  );
  assert.equal(granted.status, 200);
  await granted.body?.cancel();

  const page = await get(t, "/account/connections", {
    headers: { cookie: sessionCookie(u.token, u.email) },
  });
  assert.equal(page.status, 200);
  assert.ok(!page.html.includes(made.clientSecret), "the secret is never in the page");
  const [trakt] = islandsOf(page.html).filter((i) => i.name === "TraktApps");
  const props = trakt.props as {
    authorizations: { app: { name: string | null; clientId: string } }[];
    apps: { name: string; clientId: string }[];
    baseUrl: string;
  };
  assert.deepEqual(props.authorizations.map((a) => a.app), [
    { name: null, clientId: "player-client" },
  ]);
  assert.deepEqual(props.apps.map((a) => [a.name, a.clientId]), [["Home sync", made.clientId]]);
  assert.equal(props.baseUrl, `${t.config.siteUrl}/trakt`);
  assert.match(page.html, new RegExp(`<code>${t.config.siteUrl}/trakt</code>`));
});

Deno.test("/activate takes the code from its link, and asks a signed-out visitor to sign in first", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const page = await get(t, "/activate?code=ABCD2345", {
    headers: { cookie: sessionCookie(u.token, u.email) },
  });
  assert.equal(page.status, 200);
  const [island] = islandsOf(page.html).filter((i) => i.name === "ActivateDevice");
  assert.deepEqual(island.props, { code: "ABCD2345" });
  const signedOut = await get(t, "/activate?code=ABCD2345");
  assert.match(signedOut.html, /href="\/login\?next=%2Factivate%3Fcode%3DABCD2345"/);
});
