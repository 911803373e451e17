/**
 * The installable app in Chromium (docs/website.md, "Installable app"): Chromium finds the
 * manifest installable; with the network cut after a visit, /watched and /mylist open from
 * their offline copies with the notice; another user on the same browser never sees the first
 * user's copies, and signing out deletes them; a new build's worker replaces the old one; the
 * offline page claims no signed-out state; and the signed-out home page, which has no island,
 * registers the worker too, so the first page a visitor installs from gives the offline shell.
 *
 * The site is served here by a server the test can take down and bring back on the same port:
 * a refused connection is what a phone on a train sees.
 */
import assert from "node:assert/strict";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { SESSION_COOKIE } from "../lib/web/session_cookie.ts";
import type { BrowserSession } from "./helpers/browser_session.ts";
import { siteTest } from "./helpers/browser_test.ts";
import {
  browserPath,
  CHROMIUM_ARGS,
  hydrated,
  pageErrors,
  POPULAR_POOL,
} from "./helpers/server.ts";

const TIMEOUT = 20_000;

/** A server for `handler` that can go down (connections refused) and come back on its port. */
function switchableServer(handler: (request: Request) => Response | Promise<Response>) {
  let server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    down: () => server.shutdown(),
    up() {
      server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
    },
    close: () => server.shutdown().catch(() => {}),
  };
}

/** Puts `session` in the context's cookie, as supabase-js does on sign-in. */
async function signIn(context: BrowserContext, url: string, session: BrowserSession) {
  await context.addCookies([{
    name: SESSION_COOKIE,
    value: encodeURIComponent(JSON.stringify(session)),
    url,
    sameSite: "Lax",
  }]);
}

async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
    timeout: TIMEOUT,
  });
}

/** Polls `check` (evaluated in the page, awaited) until it answers true, within TIMEOUT. */
async function until<A>(page: Page, check: (arg: A) => Promise<boolean>, arg: A): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  // deno-lint-ignore no-explicit-any
  while (!await page.evaluate(check as any, arg)) {
    if (Date.now() > deadline) throw new Error(`never true: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the worker has kept `count` page copies for `userId`. */
async function copiesKept(page: Page, userId: string, count: number): Promise<void> {
  await until(
    page,
    async ([scope, n]) => (await (await caches.open(`pages-${scope}`)).keys()).length >= n,
    [userId, count] as const,
  );
}

async function workerVersion(page: Page): Promise<string> {
  return await page.evaluate(() =>
    new Promise<string>((resolve) => {
      navigator.serviceWorker.addEventListener("message", (event) => {
        if (event.data?.type === "version") resolve(event.data.version);
      }, { once: true });
      navigator.serviceWorker.controller!.postMessage({ type: "version" });
    })
  );
}

siteTest({
  name: "browser: installable, offline copies of the lists, one user's copies never another's",
  async fn({ server, signUp, step }) {
    // The worker's script of the "next build": the same file with another version.
    let nextBuild = false;
    const site = switchableServer(async (request) => {
      const response = await server.t.app.fetch(request);
      if (!nextBuild || new URL(request.url).pathname !== "/sw.js") return response;
      const script = (await response.text()).replace(/^const VERSION = "/m, "$&next-");
      return new Response(script, { headers: response.headers });
    });
    // A persistent profile: Chromium installs nothing from an incognito context, and
    // Playwright's ordinary contexts are incognito ones.
    const profile = await Deno.makeTempDir({ prefix: "pwa_profile_" });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browserPath(),
      args: CHROMIUM_ARGS,
      viewport: { width: 412, height: 900 },
      colorScheme: "dark",
      timeout: 60_000,
    });
    try {
      const movie = POPULAR_POOL[0];
      const alice = await signUp(`alice-${crypto.randomUUID().slice(0, 8)}@example.test`);
      const bob = await signUp(`bob-${crypto.randomUUID().slice(0, 8)}@example.test`);
      const watched = await fetch(`${server.url}/api/watched`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${alice.access_token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ catalogId: movie.id }),
      });
      assert.equal(watched.status, 200);
      await signIn(context, site.url, alice);
      const page = context.pages()[0] ?? await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      const errors = pageErrors(page);

      await step("Chromium finds the manifest valid and the site installable", async () => {
        await page.goto(`${site.url}/watched`);
        await hydrated(page);
        await controlled(page);
        const cdp = await context.newCDPSession(page);
        const manifest = await cdp.send("Page.getAppManifest");
        assert.deepEqual(manifest.errors, []);
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        assert.deepEqual(installabilityErrors, []);
      });

      await step("with the network cut, /watched and /mylist open from their copies", async () => {
        await page.goto(`${site.url}/watched`);
        await page.goto(`${site.url}/mylist`);
        await copiesKept(page, alice.user.id, 2);
        await site.down();
        await page.goto(`${site.url}/watched`);
        const notice = page.getByRole("status").filter({ hasText: "Offline copy from" });
        await notice.waitFor();
        await page.getByRole("heading", { name: movie.title }).waitFor();
        await page.goto(`${site.url}/mylist`);
        await notice.waitFor();
        // A page never visited has no copy: the offline page says so.
        await page.goto(`${site.url}/search?q=anything`);
        await page.getByRole("heading", { name: "You are offline" }).waitFor();
        // Alice is signed in: the page kept for everyone does not tell her otherwise.
        const header = page.getByRole("banner");
        for (const name of ["Sign in", "Sign up"]) {
          assert.equal(await header.getByRole("link", { name }).count(), 0, name);
        }
        site.up();
      });

      await step("another user on this browser never sees the first user's copies", async () => {
        await context.clearCookies();
        await signIn(context, site.url, bob);
        await page.goto(`${site.url}/mylist`);
        await copiesKept(page, bob.user.id, 1);
        assert.deepEqual(
          (await page.evaluate(() => caches.keys())).filter((k) => k.startsWith("pages-")),
          [`pages-${bob.user.id}`],
        );
        await site.down();
        await page.goto(`${site.url}/watched`);
        await page.getByRole("heading", { name: "You are offline" }).waitFor();
        assert.equal(await page.getByText(movie.title).count(), 0);
        site.up();
      });

      await step("signing out deletes the copies on this device", async () => {
        await page.goto(`${site.url}/mylist`);
        await hydrated(page);
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL(`${site.url}/`);
        await until(
          page,
          async () => !(await caches.keys()).some((k) => k.startsWith("pages-")),
          null,
        );
      });

      await step("a new build's worker replaces the old one and its shell", async () => {
        await page.goto(`${site.url}/login`);
        await hydrated(page);
        await controlled(page);
        const before = await workerVersion(page);
        nextBuild = true;
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          await registration!.update();
        });
        await until(page, async (old) => {
          const registration = await navigator.serviceWorker.getRegistration();
          return Boolean(
            registration?.active && registration.active === navigator.serviceWorker.controller &&
              !registration.installing && !registration.waiting &&
              registration.active.state === "activated" &&
              (await caches.keys()).includes(`shell-next-${old}`),
          );
        }, before);
        const after = await workerVersion(page);
        assert.equal(after, `next-${before}`);
        const shells = (await page.evaluate(() => caches.keys())).filter((k) =>
          k.startsWith("shell-")
        );
        assert.deepEqual(shells, [`shell-${after}`]);
      });

      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      await site.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});

siteTest({
  name: "browser: the signed-out home page, the first a visitor sees, installs the offline shell",
  async fn({ server }) {
    const site = switchableServer((request) => server.t.app.fetch(request));
    const profile = await Deno.makeTempDir({ prefix: "pwa_profile_" });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browserPath(),
      args: CHROMIUM_ARGS,
      viewport: { width: 412, height: 900 },
      timeout: 60_000,
    });
    try {
      const page = context.pages()[0] ?? await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      const errors = pageErrors(page);
      // No island on this page: the worker is registered by its own small script.
      await page.goto(`${site.url}/`);
      assert.equal(await page.locator("[data-island]").count(), 0);
      await controlled(page);
      await until(
        page,
        async () => (await caches.keys()).some((k) => k.startsWith("shell-")),
        null,
      );
      await site.down();
      await page.goto(`${site.url}/search?q=anything`);
      await page.getByRole("heading", { name: "You are offline" }).waitFor();
      // The shell's stylesheet came from the worker's cache too.
      assert.equal(
        await page.evaluate(() => getComputedStyle(document.body).display),
        "flex",
      );
      site.up();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      await site.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});
