/**
 * The release calendar by keyboard alone (docs/calendar.md, "The page"): the type filters, the
 * months either side and a film's link are reached with Tab and used with Space and Enter; the
 * grid shows on a wide screen and the agenda on a phone.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";

/** Presses Tab until the focused element has `name` as its text or label; fails after 80. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return "";
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : el.closest("label");
      return (label?.textContent ?? el.textContent ?? "").replace(/\s+/g, " ").trim();
    });
    if (focused === name) return;
  }
  assert.fail(`Tab never reached ${name}`);
}

browserTest({
  name: "browser: the release calendar by keyboard: filter the types, move a month, open a film",
  async fn({ server, signUp, open }) {
    const session = await signUp(`calendar-${crypto.randomUUID().slice(0, 8)}@example.test`);
    await seedCalendar(server.t.store, session.user.id);
    const { page, errors, context } = await open({ session });
    await page.goto(`${server.url}/calendar?month=2026-12`);
    const grid = page.locator(".calendar-grid");
    assert.ok(await grid.isVisible());
    assert.ok(!(await page.locator(".calendar-agenda").isVisible()));
    assert.deepEqual(
      (await grid.locator(".release").allTextContents()).map((s) => s.replace(/\s+/g, " ")),
      ["Arrival Day In theaters"],
    );

    // Untick "In theaters" with Space and send the form with Enter.
    await tabTo(page, "In theaters");
    await page.keyboard.press("Space");
    await tabTo(page, "Show");
    await page.keyboard.press("Enter");
    await page.waitForURL(/types=digital/);
    assert.ok(!page.url().includes("theatrical"));
    assert.equal(
      await page.locator(".empty-state").textContent(),
      "No releases of your films in December 2026.",
    );

    // The next month, filters kept, by its link.
    await tabTo(page, "January 2027 →");
    await page.keyboard.press("Enter");
    await page.waitForURL(/month=2027-01/);
    assert.ok(!page.url().includes("theatrical"));
    assert.deepEqual(
      (await page.locator(".calendar-grid .release").allTextContents())
        .map((s) => s.replace(/\s+/g, " ")),
      ["Arrival Day Digital"],
    );

    // The film's page from its day.
    await tabTo(page, "Arrival Day");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/movies/946101`);
    assert.deepEqual(errors, []);
    await context.close();

    // On a phone the same month is an agenda.
    const phone = await open({ session, width: 390 });
    await phone.page.goto(`${server.url}/calendar?month=2026-12&list=all`);
    assert.ok(!(await phone.page.locator(".calendar-grid").isVisible()));
    assert.deepEqual(
      await phone.page.locator(".calendar-agenda time").allTextContents(),
      ["Friday, December 4", "Sunday, December 20"],
    );
    await phone.context.close();
  },
});
