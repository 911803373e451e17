/**
 * Linking the identity provider from /account in a real browser (docs/oidc.md, "Linking from
 * /account"): a password account signs in, presses "Link …", signs in at the provider (whose
 * email is another, unverified one), and is back on /account with the provider linked; the
 * provider's button then signs in to that account.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated, pageErrors } from "./helpers/server.ts";
import { type Idp, startIdp } from "./helpers/oidc_idp.ts";

const TIMEOUT = 20_000;
const EMAIL = "linker@example.test";
const PASSWORD = "popcorn-matinee-42";

let idp: Idp | undefined;

browserTest({
  name:
    "browser: a password account links the identity provider from /account, then signs in with it",
  server: {
    env: async (url) => {
      idp = await startIdp(`${url}/auth/v1/callback`);
      return {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_NAME: "Test IdP",
      };
    },
  },
  async fn({ server, browser, step }) {
    await using _idp = idp!;
    idp!.accounts.set("link-sub", { email: "other@example.test", email_verified: false });
    const made = await fetch(`${server.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    assert.equal(made.status, 201);
    await made.body?.cancel();
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const errors = pageErrors(page);
    const atIdp = async () => {
      await page.waitForURL((u) => u.href.startsWith(idp!.issuer));
      await page.locator('input[name="login"]').fill("link-sub");
      await page.locator('input[name="password"]').fill("anything");
      await page.locator('button[type="submit"]').click();
      if (await page.locator('input[name="prompt"][value="consent"]').count()) {
        await page.locator('button[type="submit"]').click();
      }
    };

    await step("signed in with the password, /account offers to link the provider", async () => {
      await page.goto(`${server.url}/login?next=%2Faccount`);
      await hydrated(page);
      await page.getByLabel("Email").fill(EMAIL);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${server.url}/account`);
      await hydrated(page);
      assert.ok(await page.getByRole("heading", { name: "Sign in with Test IdP" }).isVisible());
    });

    await step("the link goes through the provider and comes back linked", async () => {
      await page.getByRole("button", { name: "Link Test IdP" }).click();
      await atIdp();
      await page.waitForURL(`${server.url}/account?linked=oidc`);
      await hydrated(page);
      assert.ok(
        await page.getByText('Test IdP is linked: "Sign in with Test IdP" opens this account')
          .isVisible(),
      );
      assert.ok(await page.getByText(EMAIL).first().isVisible(), "still the same account");
    });

    await step("signed out, the provider's button signs in to the linked account", async () => {
      await context.clearCookies();
      await page.goto(`${server.url}/login?next=%2Faccount`);
      await hydrated(page);
      await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
      await atIdp();
      await page.waitForURL(`${server.url}/account`);
      await hydrated(page);
      assert.ok(await page.getByText(EMAIL).first().isVisible());
    });
    assert.deepEqual(errors, []);
  },
});
