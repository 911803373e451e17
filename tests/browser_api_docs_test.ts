/**
 * /api/docs in a real browser: Swagger UI renders the OpenAPI document from this server's own
 * assets (no request leaves 127.0.0.1), under the page's CSP, and "Try it out" with a Bearer
 * token calls the API on the same server.
 */
import assert from "node:assert/strict";
import { signedInContext, signedInSession } from "./helpers/browser_session.ts";
import {
  hydrated,
  launchBrowser,
  pageErrors,
  skipBrowserTests,
  startTestServer,
} from "./helpers/server.ts";

const TIMEOUT = 30_000;

Deno.test({
  name: "browser: /api/docs renders the API reference offline and Try it out calls this server",
  ignore: skipBrowserTests("browser_api_docs_test.ts"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors = pageErrors(page);
      const foreign: string[] = [];
      // Any request to another host fails the test (and is refused, so nothing leaves).
      await page.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1" || url.protocol === "data:") return route.continue();
        foreign.push(url.href);
        return route.abort();
      });
      await page.goto(`${server.url}/api/docs`);
      await hydrated(page, TIMEOUT);
      await page.getByRole("heading", { name: "Movies API" }).waitFor({ timeout: TIMEOUT });
      // An operation of each kind is listed.
      await page.locator(".opblock-summary-path", { hasText: "/api/movies/search" }).first()
        .waitFor({ timeout: TIMEOUT });

      await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
      await page.screenshot({ path: new URL("./output/api-docs.png", import.meta.url).pathname });

      // Try it out: GET /api/health from the reference, answered by this server.
      const health = page.locator(".opblock", {
        has: page.locator(".opblock-summary-path", { hasText: /^\/api\/health$/ }),
      }).first();
      await health.locator(".opblock-summary").click();
      await health.getByRole("button", { name: "Try it out" }).click();
      const answered = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/health`));
      await health.getByRole("button", { name: "Execute" }).click();
      assert.equal((await answered).status(), 200);
      await health.locator(".live-responses-table .response-col_status", { hasText: "200" })
        .first().waitFor({ timeout: TIMEOUT });

      // Authorize with a Bearer token, then GET /api/watched answers the user's (empty) list.
      const email = "docs-reader@example.test";
      const session = await signedInSession(server, email);
      await page.getByRole("button", { name: /Authorize/ }).first().click();
      const dialog = page.locator(".auth-container", { hasText: "bearerAuth" });
      await dialog.locator("input").first().fill(session.access_token);
      await dialog.getByRole("button", { name: "Apply credentials" }).click();
      await dialog.getByRole("button", { name: "Close" }).click();
      const watched = page.locator(".opblock-get", {
        has: page.locator(".opblock-summary-path", { hasText: /^\/api\/watched$/ }),
      }).first();
      await watched.locator(".opblock-summary").click();
      await watched.getByRole("button", { name: "Try it out" }).click();
      const listed = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/watched`));
      await watched.getByRole("button", { name: "Execute" }).click();
      const response = await listed;
      assert.equal(response.status(), 200);
      assert.deepEqual(await response.json(), { success: true, movies: [] });

      assert.deepEqual(foreign, [], `requests left 127.0.0.1: ${foreign.join(", ")}`);
      assert.deepEqual(errors, []);

      // Signed in (the site's cookie), with no Authorize: the header shows the account and
      // "Try it out" sends the session's token; the reference sits on its light panel in the
      // dark scheme (Swagger UI's text read at 1.84:1 on the dark page).
      const ctx = await signedInContext(browser, server, session, { width: 1280 });
      const signedIn = await ctx.newPage();
      const signedInErrors = pageErrors(signedIn);
      await signedIn.goto(`${server.url}/api/docs`);
      await hydrated(signedIn, TIMEOUT);
      await signedIn.getByRole("link", { name: email }).waitFor();
      assert.equal(await signedIn.getByRole("link", { name: "Sign in" }).count(), 0);
      await signedIn.getByText("Signed in: “Try it out” sends your access token.")
        .waitFor({ timeout: TIMEOUT });
      const panel = await signedIn.locator(".api-reference").evaluate((el) =>
        getComputedStyle(el).backgroundColor
      );
      assert.equal(panel, "rgb(255, 255, 255)");
      const mine = signedIn.locator(".opblock-get", {
        has: signedIn.locator(".opblock-summary-path", { hasText: /^\/api\/watched$/ }),
      }).first();
      await mine.locator(".opblock-summary").click();
      await mine.getByRole("button", { name: "Try it out" }).click();
      const sent = signedIn.waitForRequest((r) => r.url().startsWith(`${server.url}/api/watched`));
      await mine.getByRole("button", { name: "Execute" }).click();
      const request = await sent;
      assert.equal(request.headers()["authorization"], `Bearer ${session.access_token}`);
      assert.equal((await request.response())?.status(), 200);
      assert.deepEqual(signedInErrors, []);
      await ctx.close();
    } finally {
      await browser.close();
    }
  },
});
