/**
 * Search pages in a real browser: More results with and without JavaScript (the count says the
 * movies shown so far; focus goes to the first new movie, then to "That's all"), clearing the
 * live search or a failed search clears the old results, and signed in, a film listed apart
 * under "Also found" is added to a list from its card like any other.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS, searchBody } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name: "browser: search pages on, and clearing it or a failure clears the old results",
  async fn({ server, signUp, open }, t) {
    // Page 1 is the "Fight Club" fixture; page 2 other movies; no page 3.
    server.tmdb.search = (query) => {
      const page = Number(query.get("page") ?? "1");
      if (page === 1) return { ...searchBody(1), total_pages: 2 };
      const results = page === 2 ? POPULAR_FIXTURE_ROWS.slice(0, 6) : [];
      return { page, results, total_pages: 2, total_results: 26 };
    };
    const secondPageTitle = String(POPULAR_FIXTURE_ROWS[0].title);
    await t.step("without JavaScript: More results opens page 2, which links back", async () => {
      const { context: ctx, page } = await open({ javaScriptEnabled: false });
      await page.goto(`${server.url}/search?q=fight+club`);
      await page.getByRole("link", { name: "Zombie Fight Club" }).waitFor();
      await page.getByRole("link", { name: "More results" }).click();
      await page.waitForURL(/\/search\?q=fight%20club&page=2$/);
      await page.getByRole("link", { name: secondPageTitle, exact: true }).waitFor();
      await page.getByText("6 movies on page 2").waitFor();
      assert.equal(await page.getByRole("link", { name: "More results" }).count(), 0);
      await page.getByRole("link", { name: "← Previous page" }).click();
      await page.getByRole("link", { name: "Zombie Fight Club" }).waitFor();
      await ctx.close();
    });

    await t.step("live: type, more results appended, clear, then a failure", async () => {
      const { context: ctx, page, errors } = await open();
      await page.goto(`${server.url}/search`);
      await hydrated(page);
      const box = page.getByLabel("Search movies");
      await box.fill("fight club");
      await page.getByRole("heading", { name: "Results for “fight club”" }).waitFor();
      const results = page.getByRole("list", { name: "Results for fight club" });
      const firstCount = await results.getByRole("listitem").count();
      assert.ok(firstCount > 0);

      // The count says these are the movies shown so far, not all of them: the seven without
      // a poster, date or rating come after the rest, marked.
      const also = page.getByRole("list", { name: "Also found for fight club" });
      assert.equal(await also.getByRole("listitem").count(), 7);
      await also.getByRole("listitem").filter({ hasText: "Leopard Fight Club" })
        .getByText(/Not yet released/).waitFor();
      await page.getByText(`${firstCount + 7} movies shown; more below`).waitFor();
      await page.getByRole("link", { name: "More results" }).focus();
      await page.keyboard.press("Enter");
      await results.getByRole("link", { name: secondPageTitle, exact: true }).waitFor();
      assert.equal(await results.getByRole("listitem").count(), firstCount + 6);
      // Appended in place: the page did not navigate; focus is on the first new movie.
      assert.match(page.url(), /\/search\?q=fight%20club$/);
      const focusedHref = () =>
        page.evaluate(() => document.activeElement?.getAttribute("href") ?? "");
      await page.waitForFunction(() => document.activeElement?.classList.contains("card-link"));
      const firstNew = await results.getByRole("listitem").nth(firstCount)
        .getByRole("link").getAttribute("href");
      assert.equal(await focusedHref(), firstNew);
      // The last click brings nothing new: it says so, and focus goes to that line.
      await page.getByRole("link", { name: "More results" }).click();
      await page.getByText("That's all for “fight club”.").waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "search-end");

      await box.fill("");
      await page.getByRole("heading", { name: "Search movies" }).waitFor();
      assert.equal(await page.locator(".grid").count(), 0);
      assert.equal(await page.getByText(/That's all/).count(), 0);
      assert.match(page.url(), /\/search$/);

      await box.fill("fight club");
      await page.getByRole("heading", { name: "Results for “fight club”" }).waitFor();
      server.tmdb.override = (req) =>
        req.path === "/search/movie" ? new Response("down", { status: 500 }) : undefined;
      await box.fill("memento");
      await page.getByRole("alert").getByText("Search failed").waitFor();
      await page.getByRole("heading", { name: "Search movies" }).waitFor();
      assert.equal(await page.locator(".grid").count(), 0);
      server.tmdb.override = undefined;
      assert.deepEqual(errors, []);
      await ctx.close();
    });

    await t.step('signed in: an "Also found" film is added to a list from its card', async () => {
      const session = await signUp("searcher@example.test");
      const { context: ctx, page, errors } = await open({ session });
      await page.goto(`${server.url}/search?q=fight+club`);
      await hydrated(page);
      const card = page.getByRole("list", { name: "Also found for fight club" })
        .getByRole("listitem").filter({ hasText: "Leopard Fight Club" });
      await card.getByRole("button", { name: "Add to list: Leopard Fight Club" }).click();
      await card.getByLabel("New list").fill("Someday");
      await card.getByRole("button", { name: "Create and add" }).click();
      await card.getByText("Added “Leopard Fight Club” to Someday.").waitFor();
      const headers = { authorization: `Bearer ${session.access_token}` };
      const { lists } = await (await fetch(`${server.url}/api/lists`, { headers })).json();
      const list = await (await fetch(`${server.url}/api/lists/${lists[0].id}`, { headers }))
        .json();
      assert.deepEqual(list.movies.map((m: { catalogId: number }) => m.catalogId), [944789]);
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  },
});
