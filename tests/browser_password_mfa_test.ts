/**
 * Changing the password with a second factor set up (docs/identity.md): the account page checks
 * the current password on a client of its own, so the page's aal2 session stays aal2 and the
 * change is accepted (a check on the page's own client made it aal1: 403 `mfa_required`). A reset
 * by the mailed link gives an aal1 session, so /reset-password asks for the code before it sets
 * the new password.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { claimsOf, codeAt, enrolled, passwordSession } from "./helpers/mfa.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name: "browser: a user with two-factor codes changes the password from /account",
  async fn({ server, open }) {
    const email = `factor-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { token, password } = await passwordSession(server.t, email);
    const { aal2 } = await enrolled(server.t, token);
    assert.equal(claimsOf(aal2.access_token).aal, "aal2");
    const { context, page, errors } = await open({ session: aal2 });
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
  },
});

browserTest({
  name: "browser: a user with two-factor codes resets the password: the page asks for the code",
  async fn({ server, open }) {
    const email = `reset-factor-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { token } = await passwordSession(server.t, email);
    const { secret } = await enrolled(server.t, token);
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
    const { context, page, errors } = await open();
    await page.goto(link);
    await hydrated(page);
    await page.getByLabel("New password").fill("lantern meadow quietly 7");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("enter the code of your authenticator app").waitFor();
    const code = page.getByLabel("The 6-digit code of your authenticator app");
    // A wrong code is refused in plain words and nothing is set.
    const right = codeAt(secret, server.t.clock.now() + 30_000);
    await code.fill(right === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("That code is not right. Try the current one.").waitFor();
    await code.fill(right);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL(`${server.url}/account?notice=password-set`);
    const cookie = (await context.cookies()).find((c) => c.name === "movies-session");
    const session = JSON.parse(decodeURIComponent(cookie!.value));
    assert.equal(claimsOf(session.access_token).aal, "aal2");
    const old = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "lantern meadow quietly 7" }),
    });
    assert.equal(old.status, 200, "the new password signs in");
    await old.body?.cancel();
    assert.deepEqual(errors, []);
  },
});
