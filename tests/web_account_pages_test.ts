/**
 * Server rendering of the account pages (docs/identity.md): the sign-in page's "Forgot
 * password?" link, /forgot-password, /reset-password (never cached, no Referer), and /account
 * (a prompt signed out; password, devices and deletion islands signed in).
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { getByRole, parseHtml, queryAllByRole, textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

Deno.test("website: account pages render on the server", async (t) => {
  await using app = await testApp();

  await t.step("/login links to /forgot-password from its form", async () => {
    const { html } = await get(app, "/login");
    const forgot = getByRole(parseHtml(html), "link", { name: "Forgot password?" });
    assert.equal(forgot.getAttribute("href"), "/forgot-password");
    const { html: signup } = await get(app, "/signup");
    assert.doesNotMatch(signup, /Forgot password/);
  });

  await t.step("/forgot-password is the email form island", async () => {
    const { status, html } = await get(app, "/forgot-password");
    assert.equal(status, 200);
    assert.deepEqual(islandsOf(html).map((i) => i.name), ["ForgotPassword"]);
    const doc = parseHtml(html);
    assert.equal(doc.title, "Forgot password · Movies");
    getByRole(doc, "textbox", { name: "Email" });
    // It works without JavaScript now: no note saying it needs it.
    assert.doesNotMatch(textOf(html), /needs JavaScript/);
    // Sent without JavaScript: the link is asked for, and a redirect says so (no email in it).
    const sent = await app.request("/forgot-password", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=someone%40example.test",
    });
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.get("location"), "/forgot-password?sent=1");
    assert.match(
      textOf((await get(app, "/forgot-password?sent=1")).html),
      /If an account uses that address, a link to choose a new password is on its way/,
    );
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

  await t.step(
    "/account signed out asks to sign in and ships only the worker's script",
    async () => {
      const { status, html } = await get(app, "/account");
      assert.equal(status, 200);
      const links = queryAllByRole(parseHtml(html), "link").map((a) => a.getAttribute("href"));
      assert.ok(links.includes("/login?next=%2Faccount"), "a sign-in link back here");
      assert.deepEqual(islandsOf(html), []);
      const scripts = Array.from(parseHtml(html).querySelectorAll("script"));
      assert.deepEqual(scripts.map((s) => s.getAttribute("src")?.replace(/\?v=\w+$/, "")), [
        "/static/islands/_worker.js",
      ]);
    },
  );

  await t.step(
    "/account signed in: change password, other devices, delete behind typing",
    async () => {
      const user = await createUser(app.deps, { email: "settings@example.test" });
      const { headers, html } = await get(app, "/account", {
        headers: { cookie: sessionCookie(user.token, user.email) },
      });
      assert.equal(headers.get("cache-control"), "private, no-store");
      // My services (docs/availability.md) is checked in tests/web_availability_test.ts.
      assert.ok(islandsOf(html).some((i) => i.name === "MyStreaming"));
      assert.deepEqual(islandsOf(html).filter((i) => i.name !== "MyStreaming"), [
        { name: "SignOutButton", props: {} },
        // Alerts (docs/alerts.md): the default kind switches, no channel yet.
        {
          name: "AlertSettings",
          props: {
            channels: [],
            kinds: { in_theaters: true, now_streaming: true, on_digital: true, on_physical: false },
          },
        },
        { name: "ChangePassword", props: { email: "settings@example.test" } },
        { name: "TwoFactor", props: {} },
        { name: "SignOutOthers", props: {} },
        // No profile yet: the island starts empty and asks the API nothing (no 404 on load).
        { name: "ProfileSettings", props: { profile: null } },
        { name: "ExportLinks", props: {} },
        { name: "DeleteAccount", props: { confirmation: "delete my account" } },
      ]);
      const text = textOf(html);
      for (
        const heading of [
          "Change password",
          "Two-factor codes",
          "Other devices",
          "Your data",
          "Delete account",
        ]
      ) {
        assert.ok(text.includes(heading), heading);
      }
      assert.match(text, /Type delete my account to confirm/);
      // The delete button starts unavailable (aria-disabled, never disabled, so keyboard focus
      // stays on it): nothing is deleted without the typed words.
      const doc = parseHtml(html);
      const remove = getByRole(doc, "button", { name: "Delete my account" });
      assert.equal(remove.getAttribute("type"), "submit");
      assert.equal(remove.getAttribute("aria-disabled"), "true");
      assert.ok(!remove.hasAttribute("disabled"));
      // The header's email links to the account page, marked current here.
      const account = getByRole(doc, "link", { name: "settings@example.test", current: "page" });
      assert.equal(account.getAttribute("href"), "/account");
    },
  );
});
