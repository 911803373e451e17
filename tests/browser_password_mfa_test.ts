/**
 * Changing the password with a second factor set up (docs/identity.md): the account page checks
 * the current password on a client of its own, so the page's aal2 session stays aal2 and the
 * change is accepted (a check on the page's own client made it aal1: 403 `mfa_required`).
 */
import assert from "node:assert/strict";
import { signedInContext } from "./helpers/browser_session.ts";
import { claimsOf, enrolled, passwordSession } from "./helpers/mfa.ts";
import {
  hydrated,
  launchBrowser,
  pageErrors,
  skipBrowserTests,
  startTestServer,
} from "./helpers/server.ts";

Deno.test({
  name: "browser: a user with two-factor codes changes the password from /account",
  ignore: skipBrowserTests("browser_password_mfa_test.ts"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using server = await startTestServer();
    const email = `factor-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { token, password } = await passwordSession(server.t, email);
    const { aal2 } = await enrolled(server.t, token);
    assert.equal(claimsOf(aal2.access_token).aal, "aal2");
    const browser = await launchBrowser();
    try {
      const context = await signedInContext(browser, server, aal2, { width: 1280 });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors = pageErrors(page);
      await page.goto(`${server.url}/account`);
      await hydrated(page);
      await page.getByLabel("Current password").fill(password);
      await page.getByLabel("New password").fill("lantern meadow quietly 7");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Password changed.").waitFor();
      // The page's session is still the one with the second factor.
      const cookie = (await context.cookies()).find((c) => c.name === "movies-session");
      const session = JSON.parse(decodeURIComponent(cookie!.value));
      assert.equal(claimsOf(session.access_token).aal, "aal2");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
