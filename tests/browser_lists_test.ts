/**
 * Lists of your own in a real browser: create one, add movies from their pages, reorder with
 * the keyboard alone (focus stays on the moved item), share it, and open the link signed out.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

const TIMEOUT = 20_000;

browserTest({
  name:
    "browser: create a list, add from a movie page, reorder by keyboard, share, open signed out",
  async fn({ server, browser, signUp, open, step }) {
    const session = await signUp("lister@example.test");
    const headers = { authorization: `Bearer ${session.access_token}` };
    const { page, errors } = await open({ session });
    const other = Number(POPULAR_FIXTURE_ROWS[0].id);
    let listId = "";
    const order = async () => {
      const res = await fetch(`${server.url}/api/lists/${listId}`, { headers });
      return (await res.json()).movies.map((m: { catalogId: number }) => m.catalogId);
    };

    await step("create a list on /lists", async () => {
      await page.goto(`${server.url}/lists`);
      await hydrated(page);
      await page.getByLabel("New list").fill("Rainy Sunday");
      await page.getByRole("button", { name: "Create list" }).click();
      await page.waitForURL(/\/lists\/[0-9a-f-]{36}$/);
      listId = new URL(page.url()).pathname.split("/").pop()!;
      await page.getByRole("heading", { name: "Rainy Sunday", level: 1 }).waitFor();
    });

    await step("add two movies from their pages", async () => {
      for (const id of [550, other]) {
        await page.goto(`${server.url}/movies/${id}`);
        await hydrated(page);
        await page.getByRole("button", { name: "Add to list" }).click();
        await page.getByLabel("List", { exact: true }).selectOption({ label: "Rainy Sunday" });
        await page.getByRole("button", { name: "Add", exact: true }).click();
        await page.getByText(/Added .* to Rainy Sunday\./).waitFor();
      }
      assert.deepEqual(await order(), [550, other]);
    });

    await step("reorder by keyboard: focus stays on the moved movie", async () => {
      await page.goto(`${server.url}/lists/${listId}`);
      await hydrated(page);
      const down = page.getByRole("button", { name: /^Move “Fight Club” down$/ });
      await down.focus();
      await page.keyboard.press("Enter");
      await page.getByText("Moved “Fight Club” to position 2.").waitFor();
      assert.deepEqual(await order(), [other, 550]);
      await page.getByRole("button", { name: /^Move “Fight Club” up$/ }).focus();
      await page.keyboard.press("Enter");
      await page.getByText("Moved “Fight Club” to position 1.").waitFor();
      await page.waitForFunction(() =>
        document.activeElement?.getAttribute("aria-label") === "Move “Fight Club” up"
      );
      assert.deepEqual(await order(), [550, other]);
    });

    let shareUrl = "";
    await step("share it through the dialog", async () => {
      await page.getByRole("button", { name: "Share…" }).click();
      await page.getByRole("button", { name: "Create link" }).click();
      const input = page.getByLabel(/Anyone with this link/);
      await input.waitFor();
      shareUrl = await input.inputValue();
      assert.match(shareUrl, /\/s\/[A-Za-z0-9_-]{22}$/);
    });

    await step("open the link signed out: the list, nothing private", async () => {
      const anonymous = await browser.newContext();
      try {
        const visitor = await anonymous.newPage();
        visitor.setDefaultTimeout(TIMEOUT);
        await visitor.goto(`${server.url}${new URL(shareUrl).pathname}`);
        await visitor.getByRole("heading", { name: "Rainy Sunday", level: 1 }).waitFor();
        const html = await visitor.content();
        assert.ok(!html.includes("lister@example.test"));
        assert.ok(!html.includes(session.user.id));
        assert.ok(!html.includes(listId));
        assert.equal(
          await visitor.locator('meta[name="robots"]').getAttribute("content"),
          "noindex",
        );
        assert.equal(
          await visitor.locator('meta[property="og:title"]').getAttribute("content"),
          "Rainy Sunday",
        );
      } finally {
        await anonymous.close();
      }
    });
    assert.deepEqual(errors, []);
  },
});
