/**
 * A session that still owes its two-factor code, in a browser (docs/identity.md, "Two-factor
 * codes guard the data"): a page that needs an account sends it to the code step, the right code
 * brings it back to that page signed in, and "Sign out" at the code step leads to the password
 * form instead.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { signIn } from "./helpers/auth_requests.ts";
import { codeAt, enrolled, passwordSession } from "./helpers/mfa.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name:
    "browser: a password-only session of a user with two-factor codes is sent from /watched to the code step, and back once the code is right",
  async fn({ server, open, step }) {
    const email = `owed-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { token, password } = await passwordSession(server.t, email);
    const { secret } = await enrolled(server.t, token);

    await step("the code step, then the page asked for", async () => {
      const aal1 = await signIn(server.t, email, password);
      const { page, errors } = await open({ session: aal1 });
      await page.goto(`${server.url}/watched`);
      await page.waitForURL(`${server.url}/login?next=%2Fwatched`);
      await hydrated(page);
      // Enrolment spent this 30 s step's code; the next step's is accepted (one step of drift).
      await page.getByLabel("The 6-digit code of your authenticator app")
        .fill(codeAt(secret, Date.now() + 30_000));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${server.url}/watched`);
      await page.getByRole("heading", { name: "Watched", level: 1 }).waitFor();
      assert.deepEqual(errors, []);
    });

    await step("signing out at the code step shows the password form", async () => {
      const aal1 = await signIn(server.t, email, password);
      const { page, errors } = await open({ session: aal1 });
      await page.goto(`${server.url}/login`);
      await hydrated(page);
      await page.getByRole("heading", { name: "Two-factor code" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("Email").waitFor();
      await page.getByLabel("Password").waitFor();
      assert.deepEqual(errors, []);
    });
  },
});
