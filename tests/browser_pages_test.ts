/**
 * The website's pages in a real browser: reading without JavaScript, screenshots of the main
 * pages at 390 px and 1280 px (tests/output/, the 1280 px home and movie pages also to
 * docs/screenshots/), no horizontal scroll on a phone, every navigation link in sight, and an alt
 * text on every image.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { FakeClock } from "../lib/core/clock.ts";
import { SESSION_COOKIE } from "../lib/web/session_cookie.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { signedInContext } from "./helpers/browser_session.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { updateDocsScreenshot } from "./helpers/screenshots.ts";
import { hydrated } from "./helpers/server.ts";

const TIMEOUT = 20_000;
const OUTPUT = new URL("./output/", import.meta.url);
const DOCS = new URL("../docs/screenshots/", import.meta.url);

/** Layout and accessibility checks of the current page. */
async function checkPage(page: Page, label: string, width: number): Promise<void> {
  const { scrollWidth, clientWidth, badAlts, navRows, navCut } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    badAlts: [...document.images].filter((img) => !img.alt.trim()).map((img) => img.src),
    navRows: new Set(
      [...document.querySelectorAll(".nav-links a")].map((a) => a.getBoundingClientRect().top),
    ).size,
    // A link past the edge of the screen is a link nobody sees (issue 44: "For you" was).
    navCut: [...document.querySelectorAll(".nav-links a")]
      .filter((a) => a.getBoundingClientRect().right > document.documentElement.clientWidth)
      .map((a) => a.textContent),
  }));
  if (width <= 390) {
    assert.ok(
      scrollWidth <= clientWidth,
      `${label}: scrolls sideways (${scrollWidth} > ${clientWidth})`,
    );
  }
  // On a phone the links take two rows of equal cells; from 480 px up, one row.
  assert.ok(
    navRows <= (width < 480 ? 2 : 1),
    `${label}: the main navigation takes ${navRows} rows`,
  );
  assert.deepEqual(navCut, [], `${label}: navigation links cut off`);
  assert.deepEqual(badAlts, [], `${label}: images without alt text`);
}

browserTest({
  name: "browser: pages read without JavaScript, fit a phone, and are screenshotted",
  async fn({ server, browser, signUp, open }, t) {
    await t.step("without JavaScript: search from the home page, read a movie", async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      await page.goto(`${server.url}/`);
      await page.getByLabel("Search movies").fill("fight club");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/\/search\?q=fight\+club/);
      await page.getByRole("link", { name: "Zombie Fight Club" }).waitFor();
      await page.getByRole("link", { name: "Fight Club", exact: true }).click();
      await page.waitForURL(`${server.url}/movies/550`);
      await page.getByRole("heading", { name: "Fight Club", level: 1 }).waitFor();
      await page.getByText(/insomniac/).waitFor();
      await page.getByRole("link", { name: /Watch the trailer/ }).waitFor();
      assert.ok(await page.getByText("Cast").isVisible());
      // Its one script registers the service worker; nothing else is shipped to read a movie.
      assert.deepEqual(
        (await page.locator("script").evaluateAll((s) => s.map((e) => e.getAttribute("src"))))
          .map((src) => src?.replace(/\?v=\w+$/, "")),
        ["/static/islands/_worker.js"],
      );
      await context.close();
    });

    // A fixed address (each run has a fresh store) keeps the committed screenshots byte-stable.
    const session = await signUp("reader@example.test");
    const auth = { authorization: `Bearer ${session.access_token}` };
    const ids = POPULAR_FIXTURE_ROWS.slice(0, 12).map((row) => Number(row.id));
    for (
      const [list, picks] of [["watched", ids.slice(0, 6)], ["mylist", ids.slice(6)]] as const
    ) {
      for (const catalogId of picks) {
        const response = await fetch(`${server.url}/api/${list}`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ catalogId }),
        });
        assert.equal(response.status, 200);
        await response.body?.cancel();
      }
    }
    await Deno.mkdir(OUTPUT, { recursive: true });
    await Deno.mkdir(DOCS, { recursive: true });

    await t.step(
      "an expired access token is refreshed and the page rendered signed in",
      async () => {
        const fresh = await signUp("returning@example.test");
        const twoHoursAgo = new FakeClock(Date.now() - 2 * 3600_000);
        const expired = await issueAccessToken(server.t.deps, fresh.user, {
          clock: twoHoursAgo,
        });
        const stale = { ...fresh, access_token: expired.token, expires_at: expired.expiresAt };
        const { context, page } = await open({ session: stale });
        await page.goto(`${server.url}/watched`);
        // SessionRefresh: supabase-js refreshes the token into the cookie and the page reloads.
        await page.locator(".account-email", { hasText: "returning@example.test" }).waitFor();
        await page.getByText("You haven't marked any movies as watched yet.").waitFor();
        const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
        assert.ok(cookie && !cookie.value.includes(expired.token));
        await context.close();
      },
    );

    for (const width of [390, 1280]) {
      await t.step(`screenshots at ${width} px`, async () => {
        const { context, page, errors } = await open({ session, width });
        const shots: [string, string, () => Promise<void>][] = [
          ["home", "/", async () => {}],
          [
            "movie",
            "/movies/550",
            () => page.getByRole("button", { name: "Mark as watched" }).waitFor(),
          ],
          [
            "watched",
            "/watched",
            () => page.getByRole("button", { name: /^Remove / }).first().waitFor(),
          ],
          [
            "mylist",
            "/mylist",
            () => page.getByRole("button", { name: /^Remove / }).first().waitFor(),
          ],
          ["recommendations", "/recommendations", async () => {
            await page.getByRole("button", { name: /Get recommendations|Refresh/ }).first()
              .click();
            await page.waitForFunction(
              () => {
                const titles = [...document.querySelectorAll(".recommendations h2")];
                return titles.length >= 5 && titles.every((h) => h.textContent !== "Loading…");
              },
              undefined,
              { timeout: 60_000 },
            );
          }],
        ];
        for (const [name, path, ready] of shots) {
          await page.goto(`${server.url}${path}`);
          if (path !== "/") await hydrated(page);
          await ready();
          await page.waitForLoadState("networkidle");
          // Every poster in view drawn, so the screenshots do not depend on load timing.
          await page.waitForFunction(() =>
            [...document.images].filter((img) => img.getBoundingClientRect().top < innerHeight)
              .every((img) => img.complete && img.naturalWidth > 0)
          );
          await page.evaluate(() =>
            Promise.all(
              [...document.images].filter((img) => img.getBoundingClientRect().top < innerHeight)
                .map((img) => img.decode().catch(() => {})),
            )
          );
          await checkPage(page, `${name} at ${width}px`, width);
          const file = new URL(`${name}-${width}.png`, OUTPUT);
          await page.screenshot({ path: file.pathname, animations: "disabled", caret: "hide" });
          if (width === 1280 && (name === "home" || name === "movie")) {
            await updateDocsScreenshot(browser, file, new URL(`${name}.png`, DOCS));
          }
        }
        // The pages outside the signed-in set fit too.
        for (const path of ["/search?q=fight", "/login", "/signup", "/nope"]) {
          await page.goto(`${server.url}${path}`);
          await checkPage(page, `${path} at ${width}px`, width);
        }
        assert.deepEqual(errors, []);
        await context.close();
      });
    }

    await t.step("at 360 px, signed in and out, nothing scrolls sideways or wraps", async () => {
      for (const signedIn of [true, false]) {
        const context = signedIn
          ? await signedInContext(browser, server, session, { width: 360 })
          : await browser.newContext({ viewport: { width: 360, height: 800 } });
        const page = await context.newPage();
        page.setDefaultTimeout(TIMEOUT);
        for (const path of ["/", "/movies/550", "/watched", "/recommendations", "/signup"]) {
          await page.goto(`${server.url}${path}`);
          await checkPage(page, `${path} at 360px${signedIn ? ", signed in" : ""}`, 360);
        }
        await context.close();
      }
    });
  },
});
