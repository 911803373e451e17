/**
 * /api/docs in a real browser: the reference drawn on the server from the OpenAPI document (no
 * request leaves 127.0.0.1), under the page's CSP, readable in the dark scheme, and "Try it"
 * calls the API on the same server: with a pasted Bearer token signed out, with the session's
 * token signed in.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated, pageErrors } from "./helpers/server.ts";

const TIMEOUT = 30_000;

/** The operation `method path` of the reference. */
const operation = (page: Page, method: string, path: string): Locator =>
  page.locator(
    `details.api-op#${`${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`,
  );

/** Relative luminance contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

browserTest({
  name: "browser: /api/docs renders the API reference offline and Try it calls this server",
  async fn({ server, browser, signUp, open }) {
    const page = await browser.newPage({ colorScheme: "dark" });
    page.setDefaultTimeout(TIMEOUT);
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
    await page.getByRole("heading", { name: "Movies API" }).waitFor();
    // Every operation of the document is drawn, e.g. the search.
    await operation(page, "get", "/api/movies/search").waitFor();
    const drawn = await page.locator("details.api-op").count();
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const operations = Object.values(doc.paths as Record<string, object>)
      .flatMap((item) => Object.keys(item)).length;
    assert.equal(drawn, operations);
    await hydrated(page, TIMEOUT);
    await page.getByText("Not signed in: sign in, or paste a Bearer token here.").waitFor();

    await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
    await page.screenshot({ path: new URL("./output/api-docs.png", import.meta.url).pathname });

    // Readable in the dark scheme: an operation's summary on its panel (Swagger UI read 1.84:1).
    const search = operation(page, "get", "/api/movies/search");
    const [fg, bg] = await search.evaluate((el) => [
      getComputedStyle(el.querySelector(".api-summary")!).color,
      getComputedStyle(el).backgroundColor,
    ]);
    assert.ok(contrast(fg, bg) >= 4.5, `summary contrast ${contrast(fg, bg)}`);

    // Try it: GET /api/health, answered by this server, the answer under the form.
    const health = operation(page, "get", "/api/health");
    await health.locator("summary").first().click();
    const answered = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/health`));
    await health.getByRole("button", { name: "Send GET" }).click();
    assert.equal((await answered).status(), 200);
    await health.locator(".api-result", { hasText: /^200 OK/ }).waitFor();
    // Focus stays on the pressed button.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Send GET");

    // A path parameter and a query: GET /api/movies/search?q= goes out with the query.
    await search.locator("summary").first().click();
    await search.getByLabel("q (query, required)").fill("fight club");
    const searched = page.waitForRequest((r) => r.url().includes("/api/movies/search?q="));
    await search.getByRole("button", { name: "Send GET" }).click();
    assert.equal(new URL((await searched).url()).searchParams.get("q"), "fight club");

    // A pasted Bearer token, then GET /api/watched answers the user's (empty) list.
    const email = "docs-reader@example.test";
    const session = await signUp(email);
    await page.getByLabel("Bearer token").fill(session.access_token);
    const watched = operation(page, "get", "/api/watched");
    await watched.locator("summary").first().click();
    const listed = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/watched`));
    await watched.getByRole("button", { name: "Send GET" }).click();
    const response = await listed;
    assert.equal(response.status(), 200);
    assert.deepEqual(await response.json(), { success: true, movies: [] });

    // A body: POST /api/watched with the starting body edited.
    const add = operation(page, "post", "/api/watched");
    await add.locator("summary").first().click();
    await add.getByLabel("Body (application/json)").fill('{"catalogId": 550}');
    const added = page.waitForResponse((r) =>
      r.url() === `${server.url}/api/watched` && r.request().method() === "POST"
    );
    await add.getByRole("button", { name: "Send POST" }).click();
    assert.ok([200, 201].includes((await added).status()));
    await add.locator(".api-result", { hasText: /"success": true/ }).waitFor();

    assert.deepEqual(foreign, [], `requests left 127.0.0.1: ${foreign.join(", ")}`);
    assert.deepEqual(errors, []);

    // Signed in (the site's cookie): the header shows the account and "Try it" sends the
    // session's token with nothing pasted.
    const { context: ctx, page: signedIn, errors: signedInErrors } = await open({
      session,
      timeout: TIMEOUT,
    });
    await signedIn.goto(`${server.url}/api/docs`);
    await hydrated(signedIn, TIMEOUT);
    await signedIn.getByRole("link", { name: email }).waitFor();
    assert.equal(await signedIn.getByRole("link", { name: "Sign in" }).count(), 0);
    await signedIn.getByText("Signed in: “Try it” sends your access token.").waitFor();
    const mine = operation(signedIn, "get", "/api/watched");
    await mine.locator("summary").first().click();
    const sent = signedIn.waitForRequest((r) => r.url().startsWith(`${server.url}/api/watched`));
    await mine.getByRole("button", { name: "Send GET" }).click();
    const request = await sent;
    assert.equal(request.headers()["authorization"], `Bearer ${session.access_token}`);
    assert.equal((await request.response())?.status(), 200);
    assert.deepEqual(signedInErrors, []);
    await ctx.close();
  },
});
