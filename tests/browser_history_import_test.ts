/**
 * The import page in a real browser: a signed-in user uploads a Letterboxd ZIP, watches the
 * progress bar move and finish, reads the unmatched row, sees the movies in both lists, and
 * downloads the watched list as Letterboxd CSV.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { browserTest } from "./helpers/browser_test.ts";
import { csvText, letterboxdCsvs, letterboxdZip } from "./helpers/history_files.ts";
import { CATALOG, type CatalogMovie, serveCatalog } from "./helpers/history_import_world.ts";
import { hydrated } from "./helpers/server.ts";

// 120 more watched films, so the run takes three batches and the bar has somewhere to stop.
const ARCHIVE: CatalogMovie[] = Array.from({ length: 120 }, (_, i) => ({
  id: 300_000 + i,
  title: `Archive Film ${String(i).padStart(3, "0")}`,
  release_date: "1990-01-01",
}));

function exportZip(): Uint8Array {
  const csvs = letterboxdCsvs();
  const extra = csvText(
    ["Date", "Name", "Year", "Letterboxd URI"],
    ARCHIVE.map((m, i) => ["2023-01-01", m.title, 1990, `https://boxd.it/ar${i}`]),
    { crlf: true },
  );
  csvs["watched.csv"] += extra.slice(extra.indexOf("\n") + 1);
  return letterboxdZip(csvs);
}

browserTest({
  name: "browser: upload a Letterboxd ZIP, watch the progress bar finish, see the lists",
  async fn({ server, signUp, open }) {
    serveCatalog(server.tmdb, [...CATALOG, ...ARCHIVE]);
    // The first batch's searches pass (its 50 movies are the file's first); the later films
    // wait until the page has shown the bar partway.
    const release = Promise.withResolvers<void>();
    server.tmdb.override = async (req) => {
      const n = /^Archive Film (\d+)$/.exec(req.query.get("query") ?? "")?.[1];
      if (req.path === "/search/movie" && Number(n) >= 60) await release.promise;
      return undefined;
    };
    const email = `import-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const session = await signUp(email);
    try {
      const { page, errors } = await open({ session });
      await page.goto(`${server.url}/import`);
      await hydrated(page);
      await page.getByLabel("Export file").setInputFiles({
        name: "letterboxd-someone-2026-11-23-12-00-utc.zip",
        mimeType: "application/zip",
        buffer: Buffer.from(exportZip()),
      });
      await page.getByRole("button", { name: "Import" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Importing…" }).waitFor();
      // Focus stays on the button through the upload and the run (it used to fall to the page).
      const focusOnImport = () =>
        page.evaluate(() => document.activeElement?.textContent?.trim() === "Import");
      assert.equal(await focusOnImport(), true);
      const bar = page.locator("#import-progress");
      // Partway: the first batch is applied and the bar shows it.
      await page.waitForFunction(() => {
        const value = Number(document.querySelector("#import-progress")?.getAttribute("value"));
        return value > 0 && value < 1;
      });
      const partway = Number(await bar.getAttribute("value"));
      assert.ok(partway > 0 && partway < 1, String(partway));
      release.resolve();
      await page.getByRole("heading", { name: "Import finished" }).waitFor();
      assert.equal(await focusOnImport(), true);
      assert.equal(await bar.getAttribute("value"), "1");
      await page.getByText("Progress: 100%").waitFor();
      await page.getByText("Not matched (1)").waitFor();
      await page.getByText("no movie of this title and year was found").waitFor();

      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Watched (Letterboxd CSV)" }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), "watched.csv");
      const csv = await Deno.readTextFile(await file.path());
      assert.ok(csv.startsWith("tmdbID,Title,Year,Rating10,WatchedDate,Review\r\n"), csv);
      assert.equal(csv.trim().split("\r\n").length, 1 + 3 + ARCHIVE.length);

      await page.getByRole("link", { name: "See Watched" }).click();
      // After an import Watched opens by watch date, so the imported history reads in order.
      await page.waitForURL(`${server.url}/watched?sort=watched_on`);
      await page.getByRole("heading", { name: "Fight Club", level: 2 }).waitFor();
      await page.getByRole("heading", { name: "Archive Film 119", level: 2 }).waitFor();
      await page.goto(`${server.url}/mylist`);
      await page.getByRole("heading", { name: "Spirited Away", level: 2 }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      release.resolve();
    }
  },
});
