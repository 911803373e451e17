/**
 * Issue 16 in a real browser: the recommendations page shows the stored set with reasons on
 * load (also without JavaScript), in the reader's time zone, and its quick actions answer at the
 * card (focus on Undo, which brings the card back; a dismissed card leaves for good on reload);
 * a signed-in phone shows the account. Search pages: browser_search_test.ts.
 */
import assert from "node:assert/strict";
import type { BrowserSession } from "./helpers/browser_session.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated, type TestServer } from "./helpers/server.ts";

type Session = BrowserSession;

async function api(server: TestServer, session: Session, path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    },
  });
  const text = await response.text();
  assert.ok(response.ok, `${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

browserTest({
  name: "browser: recommendations show their reasons on load and a dismissed card leaves",
  async fn({ server, signUp, open }, t) {
    const session = await signUp("reasons@example.test");
    for (const row of POPULAR_FIXTURE_ROWS.slice(0, 3)) {
      await api(server, session, "/api/watched", {
        method: "POST",
        body: JSON.stringify({ catalogId: row.id }),
      });
    }
    await api(server, session, "/api/recommend");
    const stored = await api(server, session, "/api/recommend/current");
    const first = stored.recommendations[0];
    const quotaBefore = (await api(server, session, "/api/recommend/quota")).used;

    await t.step("without JavaScript the stored set is there with its reasons", async () => {
      const { context: ctx, page } = await open({ session, javaScriptEnabled: false });
      await page.goto(`${server.url}/recommendations`);
      await page.getByText(first.reason, { exact: true }).first().waitFor();
      await page.getByText(/kept until/).waitFor();
      const cards = page.getByRole("list", { name: "Recommendations" }).getByRole("listitem");
      assert.equal(await cards.count(), stored.recommendations.length);
      await ctx.close();
    });

    await t.step("with JavaScript: reasons on load, My List, not interested, undo", async () => {
      const { context: ctx, page, errors } = await open({ session });
      await page.goto(`${server.url}/recommendations`);
      await hydrated(page);
      const list = page.getByRole("list", { name: "Recommendations" });
      const titles = await list.getByRole("heading").allTextContents();
      assert.ok(titles.length >= 5 && !titles.includes("Loading…"), titles.join(", "));
      await page.getByText(first.reason, { exact: true }).first().waitFor();

      // Feedback at the card, focus on its Undo, and the card stays in place until undone.
      const focusedText = () =>
        page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
      const cardOf = (title: string) =>
        list.getByRole("listitem").filter({
          has: page.getByRole("heading", { name: title, exact: true }),
        });
      const inView = async (title: string) => {
        // The message starts on screen (it used to be 186 to 1,777 px above it).
        const box = await cardOf(title).getByRole("status").boundingBox();
        return !!box && box.y >= 0 && box.y < 900;
      };
      const dismissed = titles[0];
      const notInterested = page.getByRole("button", { name: `Not interested in ${dismissed}` });
      await notInterested.focus();
      await page.keyboard.press("Enter");
      await cardOf(dismissed).getByText(`“${dismissed}” won't be recommended again.`).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === "Undo");
      assert.ok(await inView(dismissed), "the card's message is in view");
      await page.keyboard.press("Enter");
      await cardOf(dismissed).getByText(`“${dismissed}” may be recommended again.`).waitFor();
      await page.waitForFunction(
        (name) => document.activeElement?.getAttribute("aria-label") === name,
        `Not interested in ${dismissed}`,
      );
      assert.deepEqual((await api(server, session, "/api/recommend/dismissed")).catalogIds, []);
      await page.keyboard.press("Enter");
      await cardOf(dismissed).getByText(`“${dismissed}” won't be recommended again.`).waitFor();
      assert.equal(await list.getByRole("heading").count(), titles.length);

      const saved = titles[1];
      const save = page.getByRole("button", { name: `Add ${saved} to My List` });
      if (await save.count()) {
        await save.focus();
        await page.keyboard.press("Enter");
        await cardOf(saved).getByText(`Added “${saved}” to My List.`).waitFor();
        await page.getByRole("button", { name: `${saved} is in My List` }).waitFor();
        assert.equal(await focusedText(), "✓ My List");
      }

      const watched = titles[2];
      await page.getByRole("button", { name: `Mark watched: ${watched}` }).click();
      await cardOf(watched).getByText(`Marked “${watched}” as watched.`).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === "Undo");

      // After a reload the dismissed and watched movies stay gone; nothing was generated.
      await page.reload();
      await hydrated(page);
      const after = await list.getByRole("heading").allTextContents();
      assert.ok(!after.includes(dismissed) && !after.includes(watched), after.join(", "));
      const mine = await api(server, session, "/api/recommend/dismissed");
      assert.deepEqual(mine.catalogIds, [first.catalogId]);
      assert.equal((await api(server, session, "/api/recommend/quota")).used, quotaBefore);

      // Undo makes it possible again, says so, and brings the card back.
      const next = after[0];
      await page.getByRole("button", { name: `Not interested in ${next}` }).click();
      await page.getByRole("button", { name: "Undo" }).click();
      await page.getByText(`“${next}” may be recommended again.`).waitFor();
      await page.getByRole("button", { name: `Not interested in ${next}` }).waitFor();
      assert.equal(
        (await api(server, session, "/api/recommend/dismissed")).catalogIds.length,
        1,
      );
      assert.deepEqual(errors, []);
      await ctx.close();
    });

    await t.step("the set's dates are in the reader's own time zone", async () => {
      const { context: ctx, page } = await open({ session, timezoneId: "Asia/Tokyo" });
      await page.goto(`${server.url}/recommendations`);
      await hydrated(page);
      const made = page.locator(`time[datetime="${stored.createdAt}"]`);
      const at = new Date(stored.createdAt);
      const tokyo = (options: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "Asia/Tokyo" }).format(at);
      const expected = `${tokyo({ day: "numeric", month: "short", year: "numeric" })}, ${
        tokyo({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      }`;
      await page.waitForFunction(
        ([iso, text]) => document.querySelector(`time[datetime="${iso}"]`)?.textContent === text,
        [stored.createdAt, expected],
      );
      assert.doesNotMatch(await made.innerText(), /UTC/);
      await ctx.close();
    });

    await t.step("a signed-in phone shows the account in the header", async () => {
      // Playwright's own default timeout.
      const { context: ctx, page } = await open({ session, width: 360, timeout: 30_000 });
      await page.goto(`${server.url}/`);
      const account = page.locator(".account-email");
      assert.ok(await account.isVisible());
      const box = await account.boundingBox();
      assert.ok(box && box.width > 40, JSON.stringify(box));
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      assert.ok(scrollWidth <= clientWidth, `${scrollWidth} > ${clientWidth}`);
      await ctx.close();
    });
  },
});
