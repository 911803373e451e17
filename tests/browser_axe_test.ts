/**
 * axe-core (from npm, injected into the page) finds no violation on the home, movie, watched,
 * My List, recommendations, login and signup pages, in the dark and the light scheme, with
 * lists that hold rated and unrated movies (so the cards, stars and stats are checked too).
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { signedInContext } from "./helpers/browser_session.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated, type TestServer } from "./helpers/server.ts";

const TIMEOUT = 20_000;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Runs axe on the page as it is now; the violations, each with its first nodes. */
async function violations(page: Page): Promise<string[]> {
  // Colours are read as the page settles: a button's 0.15 s background transition caught halfway
  // (a request just ended) would be judged as a contrast it never rests at.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  // Evaluated through the DevTools protocol, so the site's CSP (script-src 'self') allows it.
  await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations as Violation[];
  });
  return found.map((v) =>
    `${v.id} (${v.impact}): ${v.help} at ${
      v.nodes.slice(0, 3).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`)
        .join("; ")
    }`
  );
}

async function seed(server: TestServer, token: string) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const rows = POPULAR_FIXTURE_ROWS.slice(0, 8).map((r) => Number(r.id));
  const writes: [string, Record<string, unknown>][] = [
    ["watched", { catalogId: 550, rating: 7, watchedOn: "2025-02-14", note: "With A." }],
    ["watched", { catalogId: rows[0], rating: 3 }],
    ["watched", { catalogId: rows[1] }],
    ["watched", { catalogId: rows[2], rating: 10, watchedOn: "2024-12-24" }],
    ...rows.slice(4).map((catalogId): [string, Record<string, unknown>] => [
      "mylist",
      { catalogId },
    ]),
  ];
  for (const [list, body] of writes) {
    const res = await fetch(`${server.url}/api/${list}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, await res.text());
  }
}

browserTest({
  name: "browser: axe finds no violation on the main pages, dark and light",
  async fn({ server, browser, signUp }, t) {
    const session = await signUp("axe@example.test");
    await seed(server, session.access_token);
    for (const colorScheme of ["dark", "light"] as const) {
      await t.step(`${colorScheme} scheme`, async () => {
        const signedIn = await signedInContext(browser, server, session, {
          width: 1280,
          colorScheme,
        });
        const signedOut = await browser.newContext({
          viewport: { width: 1280, height: 900 },
          colorScheme,
        });
        const found: string[] = [];
        const pages: [typeof signedIn, string, (page: Page) => Promise<void>][] = [
          [signedIn, "/", async () => {}],
          [
            signedIn,
            "/movies/550",
            (p) => p.getByRole("slider", { name: "Your rating" }).waitFor(),
          ],
          [signedIn, `/movies/${POPULAR_FIXTURE_ROWS[6].id}`, async () => {}],
          [
            signedIn,
            "/watched",
            (p) => p.getByRole("region", { name: "Your numbers" }).waitFor(),
          ],
          [signedIn, "/watched?sort=rating&rated=true", async () => {}],
          [signedIn, "/mylist", async () => {}],
          [signedIn, "/recommendations", async (p) => {
            await p.getByRole("button", { name: /Get recommendations|Refresh/ }).click();
            // The request is over when no button is marked busy any more.
            await p.waitForFunction(() => !document.querySelector('[aria-disabled="true"]'));
            await p.waitForFunction(
              () => {
                const titles = [...document.querySelectorAll(".recommendations h2")];
                return titles.length >= 5 && titles.every((h) => h.textContent !== "Loading…");
              },
              undefined,
              { timeout: 60_000 },
            );
          }],
          [signedOut, "/movies/550", async () => {}],
          [signedOut, "/login", async () => {}],
          [signedOut, "/signup", async () => {}],
        ];
        for (const [context, path, ready] of pages) {
          const page = await context.newPage();
          page.setDefaultTimeout(TIMEOUT);
          await page.goto(`${server.url}${path}`);
          if (await page.locator("[data-island]").count()) await hydrated(page);
          await ready(page);
          for (const v of await violations(page)) found.push(`${path}: ${v}`);
          await page.close();
        }
        await signedIn.close();
        await signedOut.close();
        assert.deepEqual(found, []);
      });
    }
  },
});
