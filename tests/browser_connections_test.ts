/**
 * /account/connections in a browser (docs/connections.md): a token is made and its value shown
 * once, works as a Bearer credential, is gone from the page after a reload, and is revoked.
 */
import assert from "node:assert/strict";
import { signedInContext, signedInSession } from "./helpers/browser_session.ts";
import {
  hydrated,
  launchBrowser,
  pageErrors,
  skipBrowserTests,
  startTestServer,
} from "./helpers/server.ts";

Deno.test({
  name: "browser: make a personal access token, see it once, use it, revoke it",
  ignore: skipBrowserTests("browser_connections_test.ts"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const session = await signedInSession(
        server,
        `tokens-${crypto.randomUUID().slice(0, 8)}@example.test`,
      );
      const context = await signedInContext(browser, server, session, { width: 1280 });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors = pageErrors(page);
      await page.goto(`${server.url}/account`);
      await page.getByRole("link", { name: "Personal access tokens" }).click();
      await page.waitForURL(`${server.url}/account/connections`);
      await hydrated(page);
      await page.getByText("No tokens yet.").waitFor();
      await page.getByRole("textbox", { name: /^Name/ }).fill("Home server");
      await page.getByRole("combobox", { name: /^Access/ }).selectOption("read");
      await page.getByRole("button", { name: "Make a token" }).click();
      const value = page.getByLabel("The new token's value");
      await value.waitFor();
      const token = await value.inputValue();
      assert.match(token, /^mvt_/);
      // Focus goes to the value, selected, ready to copy.
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
        "The new token's value",
      );
      const listed = await fetch(`${server.url}/api/watched`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(listed.status, 200);
      await listed.body?.cancel();
      // Shown once: after a reload the list names it, the value is nowhere on the page.
      await page.reload();
      await hydrated(page);
      await page.getByText("Home server").waitFor();
      assert.ok(!(await page.content()).includes(token));
      await page.getByRole("button", { name: "Revoke Home server" }).click();
      await page.getByText("Home server is revoked.").waitFor();
      const refused = await fetch(`${server.url}/api/watched`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(refused.status, 401);
      await refused.body?.cancel();
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
});
