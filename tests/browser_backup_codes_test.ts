/**
 * Two-factor backup codes in the browser (docs/oidc.md, "Backup codes"): turning codes on shows
 * the 10 backup codes once; a lost phone's owner signs in with one at the code step; /account
 * says how many are left and gives new ones; a password reset takes one too.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { signIn } from "./helpers/auth_requests.ts";
import { codeAt, passwordSession } from "./helpers/mfa.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name:
    "browser: backup codes shown once at set-up sign in at the code step, and /account counts and renews them",
  async fn({ server, open, step }) {
    const email = `backup-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { session, password } = await passwordSession(server.t, email);
    let codes: string[] = [];
    let fresh: string[] = [];

    await step("turning two-factor codes on shows 10 backup codes once", async () => {
      const { page, errors } = await open({ session });
      await page.goto(`${server.url}/account`);
      await hydrated(page);
      await page.getByRole("button", { name: "Set up two-factor codes" }).click();
      await page.getByRole("img", { name: "QR code of the two-factor secret" }).waitFor();
      const secret = (await page.locator(".two-factor-secret").textContent()) ?? "";
      await page.getByLabel("The 6-digit code the app shows").fill(codeAt(secret, Date.now()));
      await page.getByRole("button", { name: "Turn on" }).click();
      await page.getByRole("heading", { name: "Your backup codes" }).waitFor();
      codes = await page.locator(".two-factor-codes code").allTextContents();
      assert.equal(codes.length, 10);
      for (const code of codes) assert.match(code, /^[A-Z2-9]{10}$/);
      assert.ok(await page.getByRole("link", { name: "Download" }).isVisible());
      await page.getByRole("button", { name: "I have saved them" }).click();
      await page.getByText("10 of 10 backup codes left.").waitFor();
      assert.equal(await page.locator(".two-factor-codes").count(), 0, "shown only once");
      assert.deepEqual(errors, []);
    });

    await step("a backup code at the code step signs in, typed in lower case", async () => {
      const aal1 = await signIn(server.t, email, password);
      const { page, errors } = await open({ session: aal1 });
      await page.goto(`${server.url}/watched`);
      await page.waitForURL(`${server.url}/login?next=%2Fwatched`);
      await hydrated(page);
      await page.getByRole("button", { name: "Lost your phone? Use a backup code" }).click();
      await page.getByLabel("One of your backup codes").fill(codes[0].toLowerCase());
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${server.url}/watched`);
      await page.getByRole("heading", { name: "Watched", level: 1 }).waitFor();

      await page.goto(`${server.url}/account`);
      await hydrated(page);
      await page.getByText("9 of 10 backup codes left.").waitFor();
      await page.getByRole("button", { name: "New backup codes" }).click();
      await page.getByRole("heading", { name: "Your backup codes" }).waitFor();
      fresh = await page.locator(".two-factor-codes code").allTextContents();
      assert.equal(fresh.length, 10);
      assert.ok(fresh.every((c) => !codes.includes(c)));
      await page.getByText("New backup codes: the old ones no longer work.").waitFor();
      assert.deepEqual(errors, []);
    });

    await step("a used or replaced code is refused in plain words", async () => {
      const aal1 = await signIn(server.t, email, password);
      const { page, errors } = await open({ session: aal1 });
      await page.goto(`${server.url}/login`);
      await hydrated(page);
      await page.getByRole("button", { name: "Lost your phone? Use a backup code" }).click();
      await page.getByLabel("One of your backup codes").fill(codes[1]);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("That backup code is not right or was used already").waitFor();
      assert.deepEqual(errors, []);
    });

    await step("a password reset asks for the code and takes a backup code", async () => {
      const recover = await fetch(`${server.url}/auth/v1/recover`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      assert.equal(recover.status, 200);
      await recover.body?.cancel();
      let link = "";
      for (let i = 0; i < 50 && !link; i++) {
        const line = server.t.logs.find((l) => l.event === "password_reset_link");
        link = typeof line?.link === "string" ? line.link : "";
        if (!link) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(link, "the reset link is logged without SMTP");
      const { page, errors } = await open();
      await page.goto(link);
      await hydrated(page);
      await page.getByLabel("New password").fill("lantern meadow quietly 7");
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.getByRole("button", { name: "Lost your phone? Use a backup code" }).click();
      await page.getByLabel("One of your backup codes").fill(fresh[0]);
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.waitForURL(`${server.url}/account?notice=password-set`);
      assert.deepEqual(errors, []);
    });
  },
});
