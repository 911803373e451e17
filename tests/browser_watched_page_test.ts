/**
 * Ratings, dates and notes in a real browser: a movie rated with the keyboard alone (focus
 * never falls to the page), the watched page sorted through its form with the choice in the
 * URL (also without JavaScript), the stats strip, and a removal undone.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

const titles = (page: Page) =>
  page.getByRole("list", { name: "Watched" }).getByRole("heading", { level: 2 }).allTextContents();

const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

/**
 * Waits until keyboard focus is on the element named `name` (its text or aria-label): the
 * islands move focus in an effect after the render that shows the message.
 */
async function focusReaches(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => {
    const el = document.activeElement;
    return el?.textContent?.trim() === n || el?.getAttribute("aria-label") === n;
  }, name);
}

browserTest({
  name: "browser: rate a movie with the keyboard, then sort, filter and undo on the watched page",
  async fn({ server, signUp, open, step, stepsPassed }) {
    const session = await signUp("rater@example.test");
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    const [a, b, c] = POPULAR_FIXTURE_ROWS.slice(0, 3).map((r) => String(r.title));
    const seeded: [number, Record<string, unknown>][] = [
      [Number(POPULAR_FIXTURE_ROWS[0].id), { rating: 4, watchedOn: "2024-03-01" }],
      [Number(POPULAR_FIXTURE_ROWS[1].id), { watchedOn: "2023-05-05" }],
      [Number(POPULAR_FIXTURE_ROWS[2].id), { rating: 10, watchedOn: "2025-01-01" }],
    ];
    for (const [catalogId, fields] of seeded) {
      const res = await fetch(`${server.url}/api/watched`, {
        method: "POST",
        headers,
        body: JSON.stringify({ catalogId, ...fields }),
      });
      assert.equal(res.status, 200, await res.text());
    }
    const entryOf = async (id: number) =>
      (await (await fetch(`${server.url}/api/watched/${id}`, { headers })).json()).entry;

    const { context, page, errors } = await open({ session });

    await step("mark watched and rate with the keyboard; focus stays put", async () => {
      await page.goto(`${server.url}/movies/550`);
      await hydrated(page);
      await page.getByRole("button", { name: "Mark as watched" }).focus();
      await page.keyboard.press("Enter");
      const slider = page.getByRole("slider", { name: "Your rating" });
      await slider.waitFor();
      assert.equal(await focused(page), "✓ Watched");
      // Dated today, in the browser's own day.
      const today = await page.evaluate(() => {
        const d = new Date();
        const pad = (n: number) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      });
      assert.equal(await page.getByLabel("Watched on").inputValue(), today);
      assert.equal(await slider.getAttribute("aria-valuetext"), "Not rated");
      await page.keyboard.press("Tab"); // past the My List button, which stays focusable
      await page.keyboard.press("Tab");
      assert.equal(await slider.evaluate((el) => el === document.activeElement), true);
      for (let i = 0; i < 7; i++) await page.keyboard.press("ArrowRight");
      assert.equal(await slider.getAttribute("aria-valuetext"), "3.5 of 5 stars");
      assert.equal(await slider.getAttribute("aria-valuenow"), "3.5");
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowDown");
      assert.equal(await slider.getAttribute("aria-valuetext"), "4 of 5 stars");
      await page.getByLabel("Note", { exact: true }).fill("  Better the second time.  ");
      await page.getByRole("button", { name: "Save" }).focus();
      await page.keyboard.press("Enter");
      await page.getByText("Saved.").waitFor();
      assert.equal(await focused(page), "Save");
      const entry = await entryOf(550);
      assert.equal(entry.rating, 8);
      assert.equal(entry.note, "Better the second time.");
      assert.equal(entry.watchedOn, today);
      // The page shows what was saved after a reload.
      await page.reload();
      await hydrated(page);
      assert.equal(
        await page.getByRole("slider", { name: "Your rating" }).getAttribute("aria-valuetext"),
        "4 of 5 stars",
      );
      await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
      await page.screenshot({
        path: new URL("./output/movie-history-1280.png", import.meta.url).pathname,
        fullPage: true,
      });
    });

    await step("sort the watched page by rating through its form; the URL keeps it", async () => {
      await page.goto(`${server.url}/watched`);
      await hydrated(page);
      assert.deepEqual(await titles(page), ["Fight Club", c, b, a]);
      await page.getByLabel("Sort by").selectOption("rating");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/\/watched\?sort=rating&order=&/);
      // Unrated last.
      assert.deepEqual(await titles(page), [c, "Fight Club", a, b]);
      const card = page.getByRole("listitem").filter({ hasText: "Fight Club" });
      assert.match(await card.innerText(), /★ 4\b/);
      assert.match(await card.innerText(), /Watched \d{1,2} [A-Z][a-z]{2} \d{4}/);
      await page.getByLabel("Rating", { exact: true }).selectOption("false");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/rated=false/);
      assert.deepEqual(await titles(page), [b]);
      // The strip counts the whole history, whatever the filter.
      const stats = await page.getByRole("region", { name: "Your numbers" }).innerText();
      assert.match(stats, /movies\s*4\n/);
      assert.match(stats, /average of 3 rated viewings \(out of 5\)\s*3\.7★/);
    });

    await step("without JavaScript the URL's sort and filter still apply", async () => {
      const { context: plain, page: p } = await open({ session, javaScriptEnabled: false });
      await p.goto(`${server.url}/watched?sort=rating&order=asc`);
      assert.deepEqual(await titles(p), [a, "Fight Club", c, b]);
      await p.getByLabel("Sort by").selectOption("title");
      await p.getByLabel("Order").selectOption("asc");
      await p.getByRole("button", { name: "Apply" }).click();
      await p.waitForURL(/sort=title&order=asc/);
      assert.deepEqual(
        await titles(p),
        [...[a, b, c, "Fight Club"]].sort((x, y) => x.localeCompare(y)),
      );
      await plain.close();
    });

    await step("remove, then undo: focus goes to Undo, then back to the card", async () => {
      await page.goto(`${server.url}/watched?sort=rating`);
      await hydrated(page);
      await page.getByRole("button", { name: "Remove Fight Club from Watched" }).focus();
      await page.keyboard.press("Enter");
      await page.getByText("Removed “Fight Club” from Watched.").waitFor();
      await focusReaches(page, "Undo");
      assert.deepEqual(await titles(page), [c, a, b]);
      await page.keyboard.press("Enter");
      await page.getByText("Put “Fight Club” back in Watched.").waitFor();
      assert.deepEqual(await titles(page), [c, "Fight Club", a, b]);
      await focusReaches(page, "Remove Fight Club from Watched");
      const entry = await entryOf(550);
      assert.equal(entry.rating, 8);
      assert.equal(entry.note, "Better the second time.");
    });

    if (stepsPassed()) {
      assert.deepEqual(errors, [], `errors in the page: ${JSON.stringify(errors)}`);
    }
    await context.close();
  },
});
