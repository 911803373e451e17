/**
 * Server rendering of the account pages (contract section 14): the sign-in page's "Forgot
 * password?" link, /forgot-password, /reset-password (never cached, no Referer), and /account
 * (a prompt signed out; password, devices and deletion islands signed in).
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie, textOf } from "./helpers/web.ts";

Deno.test("website: account pages render on the server", async (t) => {
  await using app = await testApp();

  await t.step("/login links to /forgot-password from its form", async () => {
    const { html } = await get(app, "/login");
    assert.match(html, /<a href="\/forgot-password">Forgot password\?<\/a>/);
    const { html: signup } = await get(app, "/signup");
    assert.doesNotMatch(signup, /Forgot password/);
  });

  await t.step("/forgot-password is the email form island", async () => {
    const { status, html } = await get(app, "/forgot-password");
    assert.equal(status, 200);
    assert.deepEqual(islandsOf(html).map((i) => i.name), ["ForgotPassword"]);
    assert.match(html, /<title>Forgot password · Movies<\/title>/);
    assert.match(html, /<label for="forgot-email">Email<\/label>/);
    assert.match(html, /needs JavaScript/);
  });

  await t.step(
    "/reset-password is never cached and sends no Referer (its URL holds the token)",
    async () => {
      const { status, headers, html } = await get(
        app,
        "/reset-password?token_hash=abc&type=recovery",
      );
      assert.equal(status, 200);
      assert.equal(headers.get("cache-control"), "no-store");
      assert.equal(headers.get("referrer-policy"), "no-referrer");
      assert.deepEqual(islandsOf(html).map((i) => i.name), ["ResetPassword"]);
      // The token is read by the island from the address bar, never rendered into the page.
      assert.doesNotMatch(html, /abc/);
      assert.match(textOf(html), /Choose a new password/);
    },
  );

  await t.step("/account signed out asks to sign in and ships no JavaScript", async () => {
    const { status, html } = await get(app, "/account");
    assert.equal(status, 200);
    assert.match(html, /href="\/login\?next=%2Faccount"/);
    assert.deepEqual(islandsOf(html), []);
    assert.doesNotMatch(html, /<script/);
  });

  await t.step(
    "/account signed in: change password, other devices, delete behind typing",
    async () => {
      const user = await createUser(app.deps, { email: "settings@example.test" });
      const { headers, html } = await get(app, "/account", {
        headers: { cookie: sessionCookie(user.token, user.email) },
      });
      assert.equal(headers.get("cache-control"), "private, no-store");
      assert.deepEqual(islandsOf(html), [
        { name: "SignOutButton", props: {} },
        { name: "ChangePassword", props: { email: "settings@example.test" } },
        { name: "SignOutOthers", props: {} },
        { name: "DeleteAccount", props: { confirmation: "delete my account" } },
      ]);
      const text = textOf(html);
      for (const heading of ["Change password", "Other devices", "Delete account"]) {
        assert.ok(text.includes(heading), heading);
      }
      assert.match(text, /Type delete my account to confirm/);
      // The delete button starts disabled: nothing is deleted without the typed words.
      assert.match(html, /<button type="submit" class="button button-danger" disabled>/);
      // The header's email links to the account page, marked current here.
      assert.match(
        html,
        /<a class="account-email" href="\/account" title="Your account" aria-current="page">/,
      );
    },
  );
});
