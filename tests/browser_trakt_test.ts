/**
 * The Trakt sign-in pages in a browser (docs/trakt.md, "Sign-in"): /activate approves a device
 * code whose device then gets its tokens; /account/connections makes an own app (secret shown
 * once), whose consent page gives an out-of-band code, and signs an app out.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function settingsStatus(base: string, token: string, clientId: string): Promise<number> {
  const response = await fetch(`${base}/trakt/users/settings`, {
    headers: { authorization: `Bearer ${token}`, "trakt-api-key": clientId },
  });
  await response.body?.cancel();
  return response.status;
}

browserTest({
  name: "browser: approve a device code on /activate, the device gets its tokens, then sign it out",
  async fn({ server, signUp, open }) {
    const session = await signUp(`activate-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const { page, errors } = await open({ session });
    const clientId = "b".repeat(64);
    const codes = await (await post(`${server.url}/trakt/oauth/device/code`, {
      client_id: clientId,
    })).json();
    assert.equal(codes.verification_url, `${server.url}/activate`);
    await page.goto(`${server.url}/activate?code=${codes.user_code.toLowerCase()}`);
    await hydrated(page);
    assert.equal(
      await page.getByRole("textbox", { name: "Code" }).inputValue(),
      codes.user_code.toLowerCase(),
    );
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText(clientId).waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText(/^Approved\./).waitFor();
    const granted = await post(`${server.url}/trakt/oauth/device/token`, {
      code: codes.device_code,
      client_id: clientId,
    });
    assert.equal(granted.status, 200);
    const tokens = await granted.json();
    assert.equal(await settingsStatus(server.url, tokens.access_token, clientId), 200);

    await page.goto(`${server.url}/account/connections`);
    await hydrated(page);
    const label = `App ${clientId.slice(0, 12)}…`;
    await page.getByRole("button", { name: `Sign out ${label}` }).click();
    await page.getByText(`${label} is signed out.`).waitFor();
    assert.equal(await settingsStatus(server.url, tokens.access_token, clientId), 401);
    assert.deepEqual(errors, []);
  },
});

browserTest({
  name:
    "browser: make an own app (secret shown once), approve it on the consent page, exchange the oob code",
  async fn({ server, signUp, open }) {
    const session = await signUp(`ownapp-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const { page, errors } = await open({ session });
    await page.goto(`${server.url}/account/connections`);
    await hydrated(page);
    await page.getByText("No apps of your own yet.").waitFor();
    const trakt = page.locator("section[aria-labelledby=trakt-heading]");
    await trakt.getByRole("textbox", { name: /^App name/ }).fill("Home sync");
    await trakt.getByRole("button", { name: "Make an app" }).click();
    const clientId = await page.getByRole("textbox", { name: "Client id" }).inputValue();
    const secret = await page.getByRole("textbox", { name: "Client secret" }).inputValue();
    assert.match(clientId, /^[0-9a-f]{64}$/);
    assert.match(secret, /^[0-9a-f]{64}$/);
    await page.reload();
    await hydrated(page);
    await page.getByText("Home sync").first().waitFor();
    assert.ok(!(await page.content()).includes(secret), "the secret is shown once");

    const oob = "urn:ietf:wg:oauth:2.0:oob";
    await page.goto(
      `${server.url}/trakt/oauth/authorize?response_type=code&client_id=${clientId}&redirect_uri=${
        encodeURIComponent(oob)
      }&state=s1`,
    );
    await hydrated(page);
    await page.getByText("Home sync").first().waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    const code = await page.getByRole("textbox", { name: "The code" }).inputValue();
    const exchanged = await post(`${server.url}/trakt/oauth/token`, {
      grant_type: "authorization_code",
      code,
      client_id: clientId,
      client_secret: secret,
      redirect_uri: oob,
    });
    assert.equal(exchanged.status, 200);
    const tokens = await exchanged.json();
    assert.equal(await settingsStatus(server.url, tokens.access_token, clientId), 200);
    assert.deepEqual(errors, []);
  },
});
