/**
 * The account pages in a real browser (docs/identity.md): the signup strength meter loads
 * its estimator only there; "Forgot password?" to the link (read from the operator's warn line,
 * as without SMTP), a new password set on /reset-password, the old one refused and the link
 * spent; then /account signs out other devices and deletes the account behind the typed words.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";

const TIMEOUT = 20_000;
const OLD_PASSWORD = "correct horse battery";
const NEW_PASSWORD = "lantern meadow quietly 7";

const focusedText = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

async function signIn(page: Page, url: string, email: string, password: string) {
  await page.goto(`${url}/login`);
  await hydrated(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

browserTest({
  name: "browser: strength meter, forgot password, reset by the mailed link, account deletion",
  async fn({ server, browser, open, step }) {
    const { page, errors } = await open();
    // Chunks no island entry imports statically: the ones loaded by import() only.
    const graph: Record<string, string[]> = JSON.parse(
      await Deno.readTextFile(new URL("../static/islands/graph.json", import.meta.url)),
    );
    const eager = new Set(Object.values(graph).flat());
    const chunks: string[] = [];
    page.on("request", (r) => {
      const chunk = /\/static\/islands\/([a-z0-9_]+-[A-Z0-9]{8}\.js)$/.exec(r.url())?.[1];
      if (chunk && !eager.has(chunk)) chunks.push(r.url());
    });
    const email = `reset-${crypto.randomUUID().slice(0, 8)}@example.test`;

    await step("pages without a new-password field load no estimator chunk", async () => {
      await page.goto(`${server.url}/login`);
      await hydrated(page);
      await page.goto(`${server.url}/forgot-password`);
      await hydrated(page);
      assert.deepEqual(chunks, []);
    });

    await step(
      "signup shows the strength as the user types, and creates the account",
      async () => {
        await page.goto(`${server.url}/signup`);
        await hydrated(page);
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Password").fill("password1");
        await page.locator(".strength-word", { hasText: "too easy to guess" }).waitFor();
        assert.ok(chunks.length > 0, "the estimator chunk loaded on typing");
        await page.getByLabel("Password").fill(OLD_PASSWORD);
        await page.locator('.strength[data-score="4"], .strength[data-score="3"]').waitFor();
        await page.getByRole("button", { name: "Create account" }).click();
        await page.waitForURL(`${server.url}/?notice=welcome`);
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByRole("link", { name: "Sign in" }).first().waitFor();
      },
    );

    let link = "";
    await step(
      "'Forgot password?' sends the link (logged for the operator without SMTP)",
      async () => {
        await page.goto(`${server.url}/login`);
        await hydrated(page);
        await page.getByRole("link", { name: "Forgot password?" }).click();
        await page.waitForURL(`${server.url}/forgot-password`);
        await hydrated(page);
        await page.getByLabel("Email").fill(email);
        await page.getByRole("button", { name: "Send reset link" }).click();
        await page.getByText(`If an account uses ${email}`).waitFor();
        for (let i = 0; i < 50 && !link; i++) {
          const line = server.t.logs.find((l) => l.event === "password_reset_link");
          link = typeof line?.link === "string" ? line.link : "";
          if (!link) await new Promise((r) => setTimeout(r, 100));
        }
        assert.match(link, /\/reset-password\?token_hash=[^&]+&type=recovery$/);
      },
    );

    await step("the link's page sets a new password; the old one is refused", async () => {
      await page.goto(link);
      await hydrated(page);
      assert.equal(new URL(page.url()).search, "", "the token leaves the address bar");
      await page.getByLabel("New password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Set new password" }).click();
      // The account page says it, under a header that shows the user signed in.
      await page.waitForURL(`${server.url}/account?notice=password-set`);
      await page.getByText("Your new password is set, and you are signed in with it.").waitFor();
      await page.locator(".account-email", { hasText: email }).waitFor();
      await page.goto(`${server.url}/`);
      await page.locator(".account-email", { hasText: email }).waitFor();
      await hydrated(page);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("link", { name: "Sign in" }).first().waitFor();
      await signIn(page, server.url, email, OLD_PASSWORD);
      await page.getByText("Wrong email or password.").waitFor();
    });

    await step("the link works once", async () => {
      await page.goto(link);
      await hydrated(page);
      await page.getByLabel("New password").fill("another quite long phrase 9");
      await page.getByRole("button", { name: "Set new password" }).click();
      const said = page.getByRole("alert");
      await said.getByText("This link has expired or was already used.").waitFor();
      // Said once, not "Ask for a new one. Ask for a new link".
      assert.equal(
        (await said.innerText()).trim(),
        "This link has expired or was already used. Ask for a new link",
      );
    });

    const other = await browser.newContext();
    await step("/account signs out the other devices and keeps this one", async () => {
      const otherPage = await other.newPage();
      otherPage.setDefaultTimeout(TIMEOUT);
      await signIn(otherPage, server.url, email, NEW_PASSWORD);
      await otherPage.waitForURL(`${server.url}/`);
      await signIn(page, server.url, email, NEW_PASSWORD);
      await page.waitForURL(`${server.url}/`);
      await page.locator(".account-email", { hasText: email }).click();
      await page.waitForURL(`${server.url}/account`);
      await hydrated(page);
      // Keyboard only: focus stays on the button through the work and the answer.
      await page.getByRole("button", { name: "Sign out of other devices" }).focus();
      await page.keyboard.press("Enter");
      await page.getByText("Every other device is signed out.").waitFor();
      assert.equal(await focusedText(page), "Sign out of other devices");
      const sessions = await server.t.store.query<{ n: number }>(
        `select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id
           where u.email = $1`,
        [email],
      );
      assert.equal(sessions[0].n, 1);
      // The other device, on its next page, says why it is signed out.
      await otherPage.reload();
      await otherPage.getByText("You were signed out on this device").waitFor();
      await otherPage.getByRole("link", { name: "Sign in again" }).waitFor();
    });

    await step(
      "/account changes the password after the current one; wrong, unchanged and weak refused",
      async () => {
        const change = page.getByRole("button", { name: "Change password" });
        const press = async () => {
          await change.focus();
          await page.keyboard.press("Enter");
        };
        await page.getByLabel("Current password").fill("not my password at all");
        await page.getByLabel("New password").fill("violet harbour tandem 3");
        await press();
        await page.getByText("Your current password is not right.").waitFor();
        assert.equal(await focusedText(page), "Change password");
        await page.getByLabel("Current password").fill(NEW_PASSWORD);
        await page.getByLabel("New password").fill(NEW_PASSWORD);
        await press();
        await page.getByText("That is your current password. Choose a different one.")
          .waitFor();
        await page.getByLabel("New password").fill("password123");
        await press();
        await page.locator(".status-error", { hasText: "too easy to guess" }).waitFor();
        await page.getByLabel("New password").fill("violet harbour tandem 3");
        await press();
        await page.getByText("Password changed.").waitFor();
        assert.equal(await focusedText(page), "Change password");
        assert.equal(await page.getByLabel("Current password").inputValue(), "");
      },
    );

    await step(
      "deleting the account needs the typed words, then signs out and removes it",
      async () => {
        // Unavailable (aria-disabled, so it keeps focus) until the words are typed; a press
        // before then says what is missing and deletes nothing.
        const button = page.getByRole("button", { name: "Delete my account" });
        assert.equal(await button.getAttribute("aria-disabled"), "true");
        await page.getByLabel("Type delete my account to confirm").fill("delete my");
        assert.equal(await button.getAttribute("aria-disabled"), "true");
        await button.focus();
        await page.keyboard.press("Enter");
        await page.getByText("in the box above to delete the account").waitFor();
        await page.getByLabel("Type delete my account to confirm").fill("delete my account");
        await button.click();
        await page.waitForURL(`${server.url}/?notice=account-deleted`);
        await page.getByText("Your account is deleted").waitFor();
        await page.getByRole("link", { name: "Sign in" }).first().waitFor();
        const users = await server.t.store.query("select 1 from auth.users where email = $1", [
          email,
        ]);
        assert.equal(users.length, 0);
        await signIn(page, server.url, email, NEW_PASSWORD);
        await page.getByText("Wrong email or password.").waitFor();
      },
    );
    await other.close();
    assert.deepEqual(errors, []);
  },
});
