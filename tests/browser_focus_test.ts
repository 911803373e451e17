/**
 * Keyboard only, focus never falls to the page (issue 31, item 5): the test tabs to every
 * action of the main pages (the recommendation cards' actions and Undo, /account's Change
 * password, Sign out of other devices and Delete, /import's Import, Forgot password), presses
 * it, and a watcher in the page records any moment `document.activeElement` is <body> from the
 * press until the result is shown; at the end focus is on the control or on the result.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { csvText } from "./helpers/history_files.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

const TIMEOUT = 20_000;

/** The name a control is announced by: its aria-label, else its text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "<body>";
    return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "";
  });

/** Presses Tab until the control named `name` has focus (from wherever focus is now). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await focusedName(page) === name) return;
    await page.keyboard.press("Tab");
  }
  assert.fail(`Tab never reached "${name}"`);
}

/** Starts recording every moment focus is on <body> (sampled every 4 ms and on each blur). */
async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      fellToBody: number;
      focusWatch?: ReturnType<typeof setInterval>;
    };
    w.fellToBody = 0;
    clearInterval(w.focusWatch);
    const check = () => {
      if (!document.activeElement || document.activeElement === document.body) w.fellToBody++;
    };
    w.focusWatch = setInterval(check, 4);
    document.addEventListener("focusout", () => setTimeout(check, 0));
  });
}

/** How many samples found focus on <body> since `watchFocus`. */
const fellToBody = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { fellToBody: number }).fellToBody);

/** Tabs to `name`, presses Enter, waits for `result`, and checks where focus was meanwhile. */
async function press(
  page: Page,
  name: string,
  result: () => Promise<unknown>,
  focusAfter: string = name,
): Promise<void> {
  await tabTo(page, name);
  await watchFocus(page);
  await page.keyboard.press("Enter");
  await result();
  await page.waitForFunction(
    (expected) => {
      const el = document.activeElement;
      return el && (el.getAttribute("aria-label") ?? el.textContent?.trim()) === expected;
    },
    focusAfter,
    { timeout: TIMEOUT },
  ).catch(async () => assert.fail(`after "${name}" focus is on "${await focusedName(page)}"`));
  assert.equal(await fellToBody(page), 0, `focus fell to <body> after "${name}"`);
}

browserTest({
  name: "browser: tabbing through every action keeps focus on the control or the result",
  async fn({ server, browser, signUp, open }, t) {
    const email = "keyboard@example.test";
    const session = await signUp(email);
    const auth = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    for (const row of POPULAR_FIXTURE_ROWS.slice(0, 3)) {
      const res = await fetch(`${server.url}/api/watched`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ catalogId: row.id }),
      });
      assert.ok(res.ok, await res.text());
    }
    const made = await fetch(`${server.url}/api/recommend`, { headers: auth });
    assert.equal(made.status, 200, await made.text());

    const { context, page, errors } = await open({ session });

    await t.step(
      "/recommendations: Not interested, Undo, My List, Mark watched, Undo",
      async () => {
        await page.goto(`${server.url}/recommendations`);
        await hydrated(page);
        const list = page.getByRole("list", { name: "Recommendations" });
        await page.waitForFunction(() =>
          document.querySelectorAll("[data-action^='watched-']").length >= 3 &&
          ![...document.querySelectorAll("h3")].some((h) => h.textContent === "Loading…")
        );
        const titles = await list.getByRole("heading").allTextContents();
        const [a, b, c] = titles;
        await press(
          page,
          `Not interested in ${a}`,
          () => page.getByText(`“${a}” won't be recommended again.`).waitFor(),
          "Undo",
        );
        await press(
          page,
          "Undo",
          () => page.getByText(`“${a}” may be recommended again.`).waitFor(),
          `Not interested in ${a}`,
        );
        await press(
          page,
          `Add ${b} to My List`,
          () => page.getByText(`Added “${b}” to My List.`).waitFor(),
          `${b} is in My List`,
        );
        await press(
          page,
          `Mark watched: ${c}`,
          () => page.getByText(`Marked “${c}” as watched.`).waitFor(),
          "Undo",
        );
        await press(
          page,
          "Undo",
          () => page.getByText(`“${c}” is no longer marked as watched.`).waitFor(),
          `Mark watched: ${c}`,
        );
      },
    );

    await t.step(
      "/account: Sign out of other devices, Change password, Delete unconfirmed",
      async () => {
        await page.goto(`${server.url}/account`);
        await hydrated(page);
        await press(
          page,
          "Sign out of other devices",
          () => page.getByText("Every other device is signed out.").waitFor(),
        );
        // A refused change (the wrong current password), then an accepted one.
        await page.getByLabel("Current password").fill("not my password at all");
        await page.getByLabel("New password").fill("violet harbour tandem 3");
        await press(
          page,
          "Change password",
          () => page.getByText("Your current password is not right.").waitFor(),
        );
        await page.getByLabel("Current password").fill("screenshots-password");
        await press(page, "Change password", () => page.getByText("Password changed.").waitFor());
        // Delete before the words are typed: the button is unavailable, says why, keeps focus.
        await press(
          page,
          "Delete my account",
          () => page.getByText("in the box above to delete the account").waitFor(),
        );
      },
    );

    await t.step("/import: Import keeps focus through the upload and the run", async () => {
      await page.goto(`${server.url}/import`);
      await hydrated(page);
      await page.getByLabel("Export file").setInputFiles({
        name: "watched.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(csvText(
          ["Date", "Name", "Year", "Letterboxd URI"],
          [["2024-01-01", "A Film Nobody Made", 1999, "https://boxd.it/x1"]],
        )),
      });
      await press(
        page,
        "Import",
        () => page.getByRole("heading", { name: "Import finished" }).waitFor(),
      );
    });

    await t.step("/forgot-password: Send reset link keeps focus", async () => {
      const signedOut = await browser.newContext();
      const other = await signedOut.newPage();
      other.setDefaultTimeout(TIMEOUT);
      await other.goto(`${server.url}/forgot-password`);
      await hydrated(other);
      await other.getByLabel("Email").fill(email);
      await press(other, "Send reset link", () => other.getByText(/a link to choose/).waitFor());
      await signedOut.close();
    });

    assert.deepEqual(errors, []);
    await context.close();
  },
});
