/**
 * "More" on the diary and on a list of your own in a real browser (docs/website.md): with
 * JavaScript it appends the next 60 in place (the URL stays, focus moves to the first new
 * entry or item, a removal above does not make it skip one); without, it is a link to
 * `?page=2` that renders the next 60 on the server.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signedInContext } from "./helpers/browser_session.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated, pageErrors } from "./helpers/server.ts";

const TIMEOUT = 20_000;
const BASE = 900_000;
const N = 130;

const title = (i: number) => `Paged ${String(i).padStart(3, "0")}`;

const focusedText = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

browserTest({
  name:
    "browser: More appends the next 60 on the diary, a list and its shared page; without JavaScript ?page=2",
  async fn({ server, browser, signUp, open, step }) {
    const session = await signUp("pager@example.test");
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    const created = await fetch(`${server.url}/api/lists`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Long one" }),
    });
    assert.equal(created.status, 201);
    const listId = (await created.json()).list.id as string;
    // 130 movies, each watched once a day apart (movie N newest), and all 130 on the list.
    const store = server.t.store;
    await store.query(
      `insert into public.movies (catalog_id, title, original_title, year, genres, has_details)
         select ${BASE} + g, 'Paged ' || lpad(g::text, 3, '0'), 'Paged', 2000, array['Drama'],
           true from generate_series(1, ${N}) g`,
    );
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
         select $1::uuid, ${BASE} + g, date '2020-01-01' + g from generate_series(1, ${N}) g`,
      [session.user.id],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source)
         select $1::uuid, ${BASE} + g, date '2020-01-01' + g, 'manual'
           from generate_series(1, ${N}) g`,
      [session.user.id],
    );
    await store.query(
      `insert into public.user_list_items (list_id, catalog_id, position)
         select $1::uuid, ${BASE} + g, g from generate_series(1, ${N}) g`,
      [listId],
    );

    const { page, errors } = await open({ session });

    await step(
      "diary: More appends entries 61-120 in place, focus on the first new",
      async () => {
        await page.goto(`${server.url}/diary`);
        await hydrated(page);
        const entries = page.locator(".diary-entry");
        assert.equal(await entries.count(), 60);
        await page.getByRole("link", { name: "More", exact: true }).click();
        await page.waitForFunction(() => document.querySelectorAll(".diary-entry").length === 120);
        assert.equal(new URL(page.url()).search, "");
        await page.waitForFunction(
          (t) => document.activeElement?.textContent?.trim() === t,
          title(70),
        );
        assert.equal(await focusedText(page), title(70));
        // The More link now points at page 3, for a reload or a new tab.
        assert.equal(
          await page.getByRole("link", { name: "More", exact: true }).getAttribute("href"),
          "/diary?page=3",
        );
        await page.getByRole("link", { name: "More", exact: true }).click();
        await page.waitForFunction(() => document.querySelectorAll(".diary-entry").length === 130);
        assert.equal(await page.getByRole("link", { name: "More", exact: true }).count(), 0);
      },
    );

    await step("diary: a long note shows cut, and Edit opens it whole", async () => {
      const note = `${"A long note. ".repeat(30)}The end.`;
      await store.query(
        `update public.user_viewings set note = $2 where user_id = $1::uuid and catalog_id = $3`,
        [session.user.id, note, BASE + N],
      );
      await page.goto(`${server.url}/diary`);
      await hydrated(page);
      const shown = await page.locator(".diary-note").first().textContent();
      assert.ok(shown?.endsWith("…") && !shown.includes("The end."), shown ?? "");
      await page.getByRole("button", { name: new RegExp(`^Edit ${title(N)}`) }).click();
      const box = page.getByLabel("Note", { exact: true });
      await box.waitFor();
      assert.equal(await box.inputValue(), note);
    });

    await step(
      "list: after a removal, More appends from the next item, none skipped",
      async () => {
        await page.goto(`${server.url}/lists/${listId}`);
        await hydrated(page);
        const items = page.locator(".list-item");
        assert.equal(await items.count(), 60);
        await page.getByRole("button", { name: `Remove “${title(1)}”` }).click();
        await page.waitForFunction(() => document.querySelectorAll(".list-item").length === 59);
        await page.getByRole("link", { name: "More", exact: true }).click();
        await page.waitForFunction(() => document.querySelectorAll(".list-item").length === 119);
        await page.waitForFunction(
          (t) => document.activeElement?.textContent?.trim() === t,
          title(61),
        );
        const names = await page.locator(".list-item-body > a").allTextContents();
        assert.deepEqual(names, Array.from({ length: 119 }, (_, i) => title(i + 2)));
      },
    );

    await step("shared link, signed out: More appends the next 60 cards", async () => {
      const shared = await fetch(`${server.url}/api/lists/${listId}/share`, {
        method: "POST",
        headers,
      });
      assert.equal(shared.status, 200);
      const path = new URL((await shared.json()).shareUrl).pathname;
      const anonymous = await browser.newContext();
      try {
        const visitor = await anonymous.newPage();
        visitor.setDefaultTimeout(TIMEOUT);
        const visitorErrors = pageErrors(visitor);
        await visitor.goto(`${server.url}${path}`);
        await hydrated(visitor);
        assert.equal(await visitor.locator(".shared-grid .card").count(), 60);
        await visitor.getByRole("link", { name: "More", exact: true }).click();
        await visitor.waitForFunction(() =>
          document.querySelectorAll(".shared-grid .card").length === 120
        );
        await visitor.waitForFunction(
          (t) => document.activeElement?.textContent?.trim() === t,
          title(62),
        );
        assert.deepEqual(visitorErrors, []);
      } finally {
        await anonymous.close();
      }
    });

    await step("without JavaScript, More is a link to ?page=2", async () => {
      const noJs = await signedInContext(browser, server, session, {
        width: 1280,
        javaScriptEnabled: false,
      });
      try {
        const plain = await noJs.newPage();
        plain.setDefaultTimeout(TIMEOUT);
        await plain.goto(`${server.url}/diary`);
        await plain.getByRole("link", { name: "More", exact: true }).click();
        await plain.waitForURL(/\/diary\?page=2$/);
        const entries = await plain.locator(".diary-film > a").allTextContents();
        assert.deepEqual(entries, Array.from({ length: 60 }, (_, i) => title(70 - i)));
        await plain.goto(`${server.url}/lists/${listId}`);
        await plain.getByRole("link", { name: "More", exact: true }).click();
        await plain.waitForURL(/\?page=2$/);
        const items = await plain.locator(".list-item-body > a").allTextContents();
        // Movie 1 was removed above, so page 2 starts at movie 62.
        assert.deepEqual(items, Array.from({ length: 60 }, (_, i) => title(62 + i)));
      } finally {
        await noJs.close();
      }
    });
    assert.deepEqual(errors, []);
  },
});
