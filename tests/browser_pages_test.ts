/**
 * The website's pages in a real browser: reading without JavaScript, screenshots of the main
 * pages at 390 px and 1280 px (tests/output/, the 1280 px home and movie pages also to
 * docs/screenshots/), no horizontal scroll on a phone, and an alt text on every image.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SESSION_COOKIE } from "../lib/web/session_cookie.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import {
  launchBrowser,
  skipBrowserTests,
  startTestServer,
  type TestServer,
} from "./helpers/server.ts";

const TIMEOUT = 20_000;
const OUTPUT = new URL("./output/", import.meta.url);
const DOCS = new URL("../docs/screenshots/", import.meta.url);

/** Signs a new user up through the API and returns the supabase-js session the site stores. */
async function signedInSession(server: TestServer): Promise<{ access_token: string }> {
  // A fixed address (each run has a fresh store) keeps the committed screenshots byte-stable.
  const email = "reader@example.test";
  const password = "screenshots-password";
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signup.status, 201, await signup.text());
  const token = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(token.status, 200);
  return await token.json();
}

/** A browser context signed in with `session`, as if supabase-js had stored it. */
async function signedInContext(
  browser: Browser,
  server: TestServer,
  session: unknown,
  width: number,
): Promise<BrowserContext> {
  // Dark is the site's own look; headless Chromium would otherwise ask for light.
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: "dark",
  });
  await context.addCookies([{
    name: SESSION_COOKIE,
    value: encodeURIComponent(JSON.stringify(session)),
    url: server.url,
    sameSite: "Lax",
  }]);
  return context;
}

/** Layout and accessibility checks of the current page. */
async function checkPage(page: Page, label: string, width: number): Promise<void> {
  const { scrollWidth, clientWidth, badAlts } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    badAlts: [...document.images].filter((img) => !img.alt.trim()).map((img) => img.src),
  }));
  if (width <= 390) {
    assert.ok(
      scrollWidth <= clientWidth,
      `${label}: scrolls sideways (${scrollWidth} > ${clientWidth})`,
    );
  }
  assert.deepEqual(badAlts, [], `${label}: images without alt text`);
}

Deno.test({
  name: "browser: pages read without JavaScript, fit a phone, and are screenshotted",
  ignore: skipBrowserTests("browser_pages_test.ts"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using server = await startTestServer();
    const browser = await launchBrowser();
    try {
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
        assert.equal(await page.locator("script").count(), 0);
        await context.close();
      });

      const session = await signedInSession(server);
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

      for (const width of [390, 1280]) {
        await t.step(`screenshots at ${width} px`, async () => {
          const context = await signedInContext(browser, server, session, width);
          const page = await context.newPage();
          page.setDefaultTimeout(TIMEOUT);
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error.message));
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
                  const titles = [...document.querySelectorAll(".recommendations h3")];
                  return titles.length >= 5 && titles.every((h) => h.textContent !== "Loading…");
                },
                undefined,
                { timeout: 60_000 },
              );
            }],
          ];
          for (const [name, path, ready] of shots) {
            await page.goto(`${server.url}${path}`);
            if (path !== "/") await page.waitForSelector("html[data-hydrated]");
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
              await Deno.copyFile(file, new URL(`${name}.png`, DOCS));
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
    } finally {
      await browser.close();
    }
  },
});
