/**
 * Sign-in with the instance's identity provider and two-factor codes in a real browser: the
 * "Sign in with" button, the provider's own login and consent pages (oidc-provider), the return
 * through supabase-js's PKCE exchange, then setting up codes on /account and the code step at
 * the next sign-in.
 */
import assert from "node:assert/strict";
import { failureParams } from "../lib/identity/oidc/failure_seal.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated, pageErrors } from "./helpers/server.ts";
import { type Idp, startIdp } from "./helpers/oidc_idp.ts";
import { codeAt } from "./helpers/mfa.ts";

const TIMEOUT = 20_000;

// The identity provider, started with the site since it redirects back to the site's address.
let idp: Idp | undefined;

browserTest({
  name: "browser: sign in with the identity provider, set up two-factor codes, the code step",
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
    idp!.accounts.set("browser-sub", { email: "sso@example.test", email_verified: true });
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(TIMEOUT);
    const errors = pageErrors(page);
    const signInAtIdp = async () => {
      await page.goto(`${server.url}/login?next=%2Faccount`);
      await hydrated(page);
      await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
      await page.waitForURL((u) => u.href.startsWith(idp!.issuer));
      await page.locator('input[name="login"]').fill("browser-sub");
      await page.locator('input[name="password"]').fill("anything");
      await page.locator('button[type="submit"]').click();
      if (await page.locator('input[name="prompt"][value="consent"]').count()) {
        await page.locator('button[type="submit"]').click();
      }
    };

    await step("the button signs in through the provider and lands on /account", async () => {
      await signInAtIdp();
      await page.waitForURL(`${server.url}/account`);
      await hydrated(page);
      assert.ok(await page.getByText("sso@example.test").first().isVisible());
    });

    let secret = "";
    await step("two-factor codes are set up with the QR code and the text secret", async () => {
      await page.getByRole("button", { name: "Set up two-factor codes" }).click();
      await page.getByRole("img", { name: "QR code of the two-factor secret" }).waitFor();
      secret = (await page.locator(".two-factor-secret").textContent()) ?? "";
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await page.getByLabel("The 6-digit code the app shows").fill(codeAt(secret, Date.now()));
      await page.getByRole("button", { name: "Turn on" }).click();
      await page.getByText("Two-factor codes are on.").first().waitFor();
    });

    await step("the next sign-in asks for the code, then goes on", async () => {
      await page.context().clearCookies();
      await signInAtIdp();
      const field = page.getByLabel("The 6-digit code of your authenticator app");
      await field.waitFor();
      await field.fill(codeAt(secret, Date.now() + 30_000));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${server.url}/account`);
    });

    await step("a refused sign-in is shown on the sign-in page in plain words", async () => {
      await page.context().clearCookies();
      // The words as the callback writes them, with their signature (a crafted link's own
      // sentence is never shown: tests/oidc_failure_words_test.ts).
      const failure = await failureParams(server.t.kv, {
        code: "access_denied",
        description: "The sign-in at Test IdP was cancelled or refused.",
      });
      await page.goto(`${server.url}/login?${new URLSearchParams(failure)}`);
      await hydrated(page);
      assert.ok(
        await page.getByText("The sign-in at Test IdP was cancelled or refused.").isVisible(),
      );
    });
    assert.deepEqual(errors, []);
  },
});
