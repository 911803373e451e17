/**
 * Signup with SMTP set, in a real browser (docs/identity.md, "Proven addresses"): the form says
 * in one sentence that a link was mailed to confirm the address, while the account already
 * works, and Continue goes on to the welcome step.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { type FakeSmtp, startFakeSmtp } from "./helpers/fake_smtp.ts";
import { hydrated } from "./helpers/server.ts";

let smtp: FakeSmtp | undefined;

browserTest({
  name:
    "browser: with SMTP, signup says a link was mailed to confirm the address, and Continue goes on signed in",
  server: {
    env: async () => {
      smtp = await startFakeSmtp();
      return { SMTP_URL: smtp.url, MAIL_FROM: "Movies <no-reply@movies.test>" };
    },
  },
  async fn({ server, open }) {
    try {
      const { page, errors } = await open();
      const email = `mailed-${crypto.randomUUID().slice(0, 8)}@example.test`;
      await page.goto(`${server.url}/signup`);
      await hydrated(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("lantern meadow quietly 7");
      await page.getByRole("button", { name: "Create account" }).click();
      const status = page.getByRole("status").filter({ hasText: "We sent a link" });
      await status.waitFor();
      assert.equal(
        (await status.textContent())?.replace(/\s+/g, " ").trim(),
        `We sent a link to ${email}: open it to confirm your address (you can use the site ` +
          "meanwhile).",
      );
      assert.equal(new URL(page.url()).pathname, "/signup", "still on the form");
      assert.deepEqual((await smtp!.waitFor(1)).to, [email]);
      await page.getByRole("link", { name: "Continue" }).click();
      await page.waitForURL(`${server.url}/?notice=welcome`);
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await smtp?.close();
    }
  },
});
