/**
 * axe-core (from npm, injected into the page) finds no violation on every page of the site, in
 * the dark and the light scheme: signed in (home and its welcome card, search, movie, watched,
 * My List, recommendations, diary, stats and a year, lists and a list, account and connections,
 * import, notifications, the release calendar (a month with releases and one without), the
 * offline page, a public profile and a shared list) with lists that hold rated and unrated
 * movies (so the cards, stars and stats are checked too), signed out (each page's sign-in
 * prompt, the auth forms, the 404 page), and a fresh instance's movie page without a TMDB key.
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { BrowserContext, Page } from "playwright-core";
import { signedInContext } from "./helpers/browser_session.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";
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

/** Fills `token`'s user's lists, diary, an own list (shared) and a public profile; its ids. */
async function seed(server: TestServer, token: string): Promise<{ listId: string; slug: string }> {
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
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
    return await res.json();
  };
  for (
    const viewing of [
      { catalogId: 550, rating: 8, watchedOn: "2025-03-14", note: "Again." },
      { catalogId: rows[2], rating: 9, watchedOn: "2025-12-24" },
      { catalogId: rows[3], watchedOn: "2025-06-01" },
    ]
  ) await call("POST", "/api/diary", viewing);
  const { list } = await call("POST", "/api/lists", { name: "Favourites", description: "Mine." });
  for (const catalogId of [550, rows[0]]) {
    await call("POST", `/api/lists/${list.id}/items`, { catalogId });
  }
  const { shareUrl } = await call("POST", `/api/lists/${list.id}/share`);
  await call("PUT", "/api/me/profile", {
    handle: "axe_viewer",
    displayName: "Axe Viewer",
    public: true,
    showStats: true,
  });
  return { listId: list.id, slug: new URL(shareUrl).pathname.split("/").pop()! };
}

/** Opens each page in its context, waits until it is ready, and collects axe's violations. */
async function check(
  pages: [BrowserContext, string, (page: Page) => Promise<void>][],
  server: TestServer,
): Promise<string[]> {
  const found: string[] = [];
  for (const [context, path, ready] of pages) {
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    await page.goto(`${server.url}${path}`);
    if (await page.locator("[data-island]").count()) await hydrated(page);
    await ready(page);
    for (const v of await violations(page)) found.push(`${path}: ${v}`);
    await page.close();
  }
  return found;
}

const settled = async () => {};

browserTest({
  name: "browser: axe finds no violation on any page, dark and light",
  async fn({ server, browser, signUp }, t) {
    const session = await signUp("axe@example.test");
    const { listId, slug } = await seed(server, session.access_token);
    // Films with release dates, for the calendar's grid, agenda and filters.
    await seedCalendar(server.t.store, session.user.id);
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
        const pages: [BrowserContext, string, (page: Page) => Promise<void>][] = [
          [signedIn, "/", settled],
          [signedIn, "/?notice=welcome", settled],
          [signedIn, "/search?q=fight", settled],
          [
            signedIn,
            "/movies/550",
            (p) => p.getByRole("slider", { name: "Your rating" }).first().waitFor(),
          ],
          [signedIn, `/movies/${POPULAR_FIXTURE_ROWS[6].id}`, settled],
          [
            signedIn,
            "/watched",
            (p) => p.getByRole("region", { name: "Your numbers" }).waitFor(),
          ],
          [signedIn, "/watched?sort=rating&rated=true", settled],
          [signedIn, "/mylist", settled],
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
          [signedIn, "/diary", settled],
          [signedIn, "/stats", settled],
          [signedIn, "/stats/2025", settled],
          [signedIn, "/lists", settled],
          [signedIn, `/lists/${listId}`, settled],
          [signedIn, "/account", settled],
          [signedIn, "/account/connections", settled],
          [signedIn, "/activate?code=ABCD2345", settled],
          [signedIn, "/trakt/oauth/authorize?response_type=code&client_id=none", settled],
          [signedIn, "/import", settled],
          [signedIn, "/notifications", settled],
          [signedIn, "/calendar?month=2026-12&list=all", settled],
          [signedIn, "/calendar?month=2026-07", settled],
          [signedIn, "/offline", settled],
          [signedIn, "/u/axe_viewer", settled],
          [signedIn, `/s/${slug}`, settled],
          [signedOut, "/", settled],
          [signedOut, "/search?q=fight", settled],
          [signedOut, "/movies/550", settled],
          [signedOut, "/login", settled],
          [signedOut, "/signup", settled],
          [signedOut, "/forgot-password", settled],
          [signedOut, "/reset-password", settled],
          [signedOut, "/watched", settled],
          [signedOut, "/mylist", settled],
          [signedOut, "/calendar", settled],
          [signedOut, "/recommendations", settled],
          [signedOut, "/diary", settled],
          [signedOut, "/stats", settled],
          [signedOut, "/stats/2025", settled],
          [signedOut, "/lists", settled],
          [signedOut, `/lists/${listId}`, settled],
          [signedOut, "/account", settled],
          [signedOut, "/activate", settled],
          [signedOut, "/import", settled],
          [signedOut, "/notifications", settled],
          [signedOut, "/offline", settled],
          [signedOut, "/u/axe_viewer", settled],
          [signedOut, `/s/${slug}`, settled],
          [signedOut, "/no-such-page", settled],
        ];
        const found = await check(pages, server);
        await signedIn.close();
        await signedOut.close();
        assert.deepEqual(found, []);
      });
    }
  },
});

browserTest({
  name: "browser: axe finds no violation on a fresh instance's pages without a TMDB key",
  server: { env: () => Promise.resolve({ TMDB_API_KEY: "" }) },
  async fn({ server, browser, signUp }, t) {
    const session = await signUp("axe-fresh@example.test");
    for (const colorScheme of ["dark", "light"] as const) {
      await t.step(`${colorScheme} scheme`, async () => {
        const signedIn = await signedInContext(browser, server, session, {
          width: 1280,
          colorScheme,
        });
        const found = await check([
          [signedIn, "/movies/550", settled],
          [signedIn, "/?notice=welcome", settled],
          [signedIn, "/search?q=fight", settled],
        ], server);
        await signedIn.close();
        assert.deepEqual(found, []);
      });
    }
  },
});
