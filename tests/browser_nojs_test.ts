/**
 * Without JavaScript, in a real browser: the entry form's Save never puts the private note in
 * the address bar (it posts, and the page says saving needs JavaScript); "Forgot password"
 * sends the link (it ended on a 405 page); a signed-in page says plainly what needs JavaScript.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";

browserTest({
  name:
    "browser without JavaScript: entry Save keeps the note out of the URL; forgot password works",
  async fn({ server, browser, signUp, open }, t) {
    const email = "plain@example.test";
    const session = await signUp(email);
    const id = Number(POPULAR_FIXTURE_ROWS[0].id);
    const added = await fetch(`${server.url}/api/watched`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ catalogId: id }),
    });
    assert.equal(added.status, 200, await added.text());

    await t.step("the entry form posts: no note in the URL, and it says why", async () => {
      const { context: ctx, page } = await open({ session, javaScriptEnabled: false });
      await page.goto(`${server.url}/movies/${id}`);
      // Playwright's text queries skip <noscript>: read the page's HTML for the notice.
      assert.match(
        await page.content(),
        /<noscript><p[^>]*>Reading works without JavaScript, but changing your lists/,
      );
      await page.getByLabel("Note", { exact: true }).fill("private words");
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/unsaved=1/);
      assert.doesNotMatch(page.url(), /private|note=/);
      await page.getByText("Saving a rating, date or note needs JavaScript").waitFor();
      await ctx.close();
    });

    await t.step("forgot password sends the link and says so", async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      const page = await ctx.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.url}/forgot-password`);
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.waitForURL(`${server.url}/forgot-password?sent=1`);
      await page.getByText("If an account uses that address").waitFor();
      // The recover call answers before its work (the same for every email), so the
      // operator's line comes a moment after the page.
      let line: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && !line; i++) {
        line = server.t.logs.find((l) => l.event === "password_reset_link");
        if (!line) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(line?.to, email);
      await ctx.close();
    });
  },
});
