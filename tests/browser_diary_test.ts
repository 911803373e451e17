/**
 * The diary in a real browser: a signed-in user imports a Letterboxd ZIP through /import (a
 * film watched twice, one watched without a rating), opens the year in review and finds the
 * import's numbers there, then rates the unrated film from "Rate what you watched" on the home
 * page with the keyboard alone.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { browserTest } from "./helpers/browser_test.ts";
import { csvText, letterboxdCsvs, letterboxdZip } from "./helpers/history_files.ts";
import { serveCatalog } from "./helpers/history_import_world.ts";
import { hydrated } from "./helpers/server.ts";

// Letterboxd's files, with one more diary entry: Heat, watched in August 2024, not rated.
function diaryZip(): Uint8Array {
  const csvs = letterboxdCsvs();
  const heat = csvText(
    ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"],
    [["2024-08-02", "Heat", 1995, "https://boxd.it/h1", "", "", "", "2024-08-01"]],
  );
  csvs["diary.csv"] += heat.slice(heat.indexOf("\n") + 1);
  return letterboxdZip(csvs);
}

browserTest({
  name: "browser: import a diary, open the year in review, rate from the queue by keyboard",
  async fn({ server, signUp, open }) {
    serveCatalog(server.tmdb);
    const email = `diary-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const session = await signUp(email);
    const api = (path: string) =>
      fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${session.access_token}` },
      }).then((r) => r.json());

    const { page, errors } = await open({ session });

    await page.goto(`${server.url}/import`);
    await hydrated(page);
    await page.getByLabel("Export file").setInputFiles({
      name: "letterboxd-diarist-2026-11-28-12-00-utc.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(diaryZip()),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByRole("heading", { name: "Import finished" }).waitFor();

    // Every diary row is a viewing: Fight Club twice (the second a rewatch), Crouching
    // Tiger and Heat once.
    const diary = await api("/api/diary?year=2024");
    const viewings = diary.entries.map((e: { title: string; rewatch: boolean }) =>
      `${e.title}${e.rewatch ? " (rewatch)" : ""}`
    );
    for (
      const v of ["Heat", "Fight Club (rewatch)", "Fight Club", "Crouching Tiger, Hidden Dragon"]
    ) {
      assert.ok(viewings.includes(v), `${v} in ${viewings}`);
    }
    const stats = await api("/api/stats?year=2024");
    assert.ok(stats.viewings >= 4 && stats.rewatches >= 1, JSON.stringify(stats));

    await page.goto(`${server.url}/stats/2024`);
    await page.getByRole("heading", { name: "2024 in review", level: 1 }).waitFor();
    const figure = (name: string) =>
      page.locator(".review-figures div", { has: page.locator("dt", { hasText: name }) })
        .locator("dd").innerText();
    assert.equal(await figure("Films"), String(stats.films));
    assert.equal(await figure("Viewings"), String(stats.viewings));
    assert.equal(await figure("Rewatches"), String(stats.rewatches));
    // The charts' numbers are also tables for screen readers.
    const months = page.locator("table", { hasText: "Viewings in 2024 by month" });
    assert.equal(await months.count(), 1);
    await page.getByRole("heading", { name: "Top rated" }).waitFor();
    await page.locator(".review-top").getByRole("link", { name: "Fight Club" }).waitFor();
    await page.getByRole("navigation", { name: "Years" }).getByRole("link", { name: "2024" })
      .waitFor();

    // Home: the queue of what to rate holds Heat; Tab to its stars, End gives five.
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Rate what you watched" }).waitFor();
    const label = "Your rating of Heat";
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(
        (name) => document.activeElement?.getAttribute("aria-label") === name,
        label,
      );
    }
    assert.ok(reached, "the queue's stars are reachable by Tab");
    await page.keyboard.press("End");
    await page.locator(".queue-item", { hasText: "Heat" }).getByRole("status")
      .getByText("Saved: 5 of 5 stars.").waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.locator(".queue-item", { hasText: "Heat" }).getByRole("status")
      .getByText("Saved: 4.5 of 5 stars.").waitFor();
    assert.equal(
      await page.getByRole("slider", { name: label }).getAttribute("aria-valuenow"),
      "4.5",
    );

    // The rating went to Heat's viewing, and the watched summary follows it.
    const heat = (await api("/api/diary?year=2024")).entries
      .find((e: { title: string }) => e.title === "Heat");
    assert.equal(heat.rating, 9);
    const queue = await api("/api/diary/unrated");
    assert.ok(
      !queue.movies.some((m: { title: string }) => m.title === "Heat"),
      JSON.stringify(queue),
    );
    assert.deepEqual(errors, []);
  },
});
