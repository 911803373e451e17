/**
 * The website walk-through's layout findings in Chromium (issue 44; docs/website.md): on
 * /account the check boxes are small boxes beside their words and the page asks the API for
 * nothing that is not there (no 404 in the console); every main navigation link is in sight on
 * a phone; a diary row keeps Edit to the right of its title and the year after the title; the
 * welcome card's heading sits at its top; and a fresh instance without a TMDB key says what is
 * missing on a movie page, and the welcome card does not point at movies that are not there.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

/** The failed requests of `page` (status 400 and up), as "status path". */
function failedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) {
      failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  return failed;
}

/** Each check box of `selector`'s labels: its box, and where its words start and end. */
async function checkBoxes(page: Page, selector: string) {
  return await page.locator(selector).evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.querySelector("input")!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(label);
      range.setStartAfter(label.querySelector("input")!);
      const words = [...range.getClientRects()].filter((r) => r.width > 0);
      return {
        text: (label.textContent ?? "").trim(),
        width: box.width,
        height: box.height,
        boxRight: box.right,
        boxMiddle: box.top + box.height / 2,
        wordsLeft: Math.min(...words.map((r) => r.left)),
        wordsTop: Math.min(...words.map((r) => r.top)),
        wordsBottom: Math.max(...words.map((r) => r.bottom)),
      };
    })
  );
}

browserTest({
  name: "browser: /account's switches, the phone's navigation, diary rows and the welcome card",
  async fn({ server, signUp, open, step }) {
    const session = await signUp(`layout-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    const [shazam, antMan] = [POPULAR_FIXTURE_ROWS[2], POPULAR_FIXTURE_ROWS[0]];
    for (
      const body of [
        { catalogId: Number(shazam.id), rating: 9, watchedOn: "2025-12-24" },
        { catalogId: Number(antMan.id), rating: 3, watchedOn: "2025-04-01", note: "A note." },
        { catalogId: 550, rating: 8, watchedOn: "2025-03-14" },
      ]
    ) {
      const res = await fetch(`${server.url}/api/diary`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201, await res.text());
    }

    for (const width of [390, 1280]) {
      await step(`/account at ${width} px: small check boxes beside their words`, async () => {
        const { page, errors, context } = await open({ session, width });
        const failed = failedRequests(page);
        await page.goto(`${server.url}/account`);
        await hydrated(page);
        await page.getByRole("checkbox", { name: "Recommend only what I can stream" }).waitFor();
        const boxes = await checkBoxes(page, "label:has(> input[type=checkbox])");
        assert.ok(boxes.length >= 4, JSON.stringify(boxes));
        for (const b of boxes) {
          // A box the size of a letter, not a 44 px tall field stretched across the card...
          assert.ok(b.width <= 24 && b.height <= 24, `${b.text}: ${b.width}x${b.height}`);
          // ...with its words starting right after it, level with it.
          assert.ok(b.wordsLeft >= b.boxRight, `${b.text}: words left of the box`);
          assert.ok(b.wordsLeft - b.boxRight < 80, `${b.text}: words pushed aside`);
          assert.ok(
            b.boxMiddle >= b.wordsTop && b.boxMiddle <= b.wordsBottom,
            `${b.text}: the box is not level with its words`,
          );
        }
        // No profile yet: the page asked for none (a 404 in the console before).
        assert.deepEqual(failed, []);
        assert.deepEqual(errors, []);
        await context.close();
      });
    }

    for (const width of [360, 390]) {
      await step(`at ${width} px every main navigation link is in sight`, async () => {
        const { page, context } = await open({ session, width });
        await page.goto(`${server.url}/diary`);
        const cut = await page.evaluate(() => {
          const nav = document.querySelector(".nav-links")!.getBoundingClientRect();
          return [...document.querySelectorAll(".nav-links a")].filter((a) => {
            const r = a.getBoundingClientRect();
            return r.left < nav.left - 0.5 || r.right > nav.right + 0.5 ||
              r.right > document.documentElement.clientWidth;
          }).map((a) => a.textContent);
        });
        assert.deepEqual(cut, [], "links cut off at the edge");
        await context.close();
      });
    }

    for (const width of [390, 1280]) {
      await step(
        `diary rows at ${width} px: Edit beside the title, the year after it`,
        async () => {
          const { page, context } = await open({ session, width });
          await page.goto(`${server.url}/diary`);
          await hydrated(page);
          const rows = await page.locator(".diary-entry").evaluateAll((entries) =>
            entries.map((entry) => {
              const rect = (el: Element | null) => el!.getBoundingClientRect();
              const title = entry.querySelector("a[href^='/movies/']");
              const year = title!.nextElementSibling;
              const edit = rect(entry.querySelector("button"));
              const texts = [
                title,
                entry.querySelector(".diary-day"),
                ...entry.querySelectorAll(
                  ".rewatch, .diary-rating",
                ),
              ].map((el) => rect(el).right);
              const titleLines = [...title!.getClientRects()];
              const lastLine = titleLines[titleLines.length - 1];
              return {
                title: title!.textContent,
                editLeft: edit.left,
                textRight: Math.max(...texts),
                yearLeft: rect(year).left,
                yearTop: rect(year).top,
                titleLastLineRight: lastLine.right,
                titleLastLineTop: lastLine.top,
              };
            })
          );
          assert.equal(rows.length, 3);
          for (const row of rows) {
            assert.ok(row.editLeft >= row.textRight, `${row.title}: Edit under the text`);
            // The year follows the title's last line, never starting a line of its own.
            assert.ok(
              Math.abs(row.yearTop - row.titleLastLineTop) < 4 &&
                row.yearLeft >= row.titleLastLineRight,
              `${row.title}: the year starts a line`,
            );
          }
          await context.close();
        },
      );
    }

    await step("the welcome card's heading sits at its top", async () => {
      const { page, context } = await open({ session, width: 390 });
      await page.goto(`${server.url}/?notice=welcome`);
      const gap = await page.evaluate(() => {
        const card = document.querySelector(".welcome")!.getBoundingClientRect();
        const heading = document.querySelector("#welcome-heading")!.getBoundingClientRect();
        return heading.top - card.top;
      });
      // The card's own padding (about 14 px), not a heading's 2rem on top of it.
      assert.ok(gap <= 20, `${gap} px above the heading`);
      await page.getByText("open a few movies you've seen below").waitFor();
      await context.close();
    });
  },
});

browserTest({
  name: "browser: a fresh instance without a TMDB key says what is missing",
  server: { env: () => Promise.resolve({ TMDB_API_KEY: "" }) },
  async fn({ server, signUp, open }) {
    const session = await signUp(`fresh-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const { page, errors, context } = await open({ session, width: 390 });
    const response = await page.goto(`${server.url}/movies/550`);
    assert.equal(response?.status(), 500);
    await page.getByRole("heading", { level: 1, name: "Movie details aren't available yet" })
      .waitFor();
    await page.getByText(/TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN/).waitFor();
    assert.equal(await page.getByText(/Something went wrong|Error 500/i).count(), 0);
    // Nothing is below the welcome card (no movie data): it points at the search box instead.
    await page.goto(`${server.url}/?notice=welcome`);
    await page.getByText("Movie data isn't available yet").waitFor();
    assert.equal(await page.getByText(/movies you've seen below/).count(), 0);
    await page.getByText("search for a few movies you've seen").waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  },
});
