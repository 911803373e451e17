/**
 * One browser test (tests/browser_*_test.ts) with its preamble: skipped with a line saying why
 * when there is no Chromium (a failure under REQUIRE_BROWSER=1), the site started on a real
 * port with its fakes (./server.ts), Chromium launched, and all of it closed after the test.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type BrowserSession, signedInContext, signedInSession } from "./browser_session.ts";
import {
  launchBrowser,
  pageErrors,
  skipBrowserTests,
  startTestServer,
  type TestServer,
} from "./server.ts";

/** What a test that drives the site gets, browser or not. */
interface SiteWorld {
  /** The running site and its fakes. */
  server: TestServer;
  /** Signs a new user up through the API; the supabase-js session the site stores. */
  signUp(email: string): Promise<BrowserSession>;
  /**
   * `t.step`, not run once an earlier `step` of this test failed: for steps that each build on
   * the last, where after a failure the rest would only fail again.
   */
  step(name: string, fn: () => Promise<void>): Promise<void>;
  /** Whether every `step` so far passed. */
  stepsPassed(): boolean;
}

/** Options of a page `open` opens, each in a context of its own. */
interface OpenOptions {
  /** Signed in with this session, as if supabase-js had stored it; signed out when absent. */
  session?: unknown;
  /** The viewport's width (its height is 900); 1280 when absent. */
  width?: number;
  /** Signed in, dark (the site's own look) when absent; signed out, Chromium's own (light). */
  colorScheme?: "dark" | "light";
  javaScriptEnabled?: boolean;
  timezoneId?: string;
  /** The page's default timeout for its waits and actions; 20 s when absent. */
  timeout?: number;
}

/** A page `open` opened: its context, and the page's uncaught errors and CSP refusals. */
interface OpenedPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** What a browser test gets: the site's world and the launched Chromium. */
interface BrowserWorld extends SiteWorld {
  browser: Browser;
  /**
   * A new context and its page at `options.width` × 900, signed in when `options.session` is
   * given, the default timeout set and errors collected (./server.ts's `pageErrors`).
   */
  open(options?: OpenOptions): Promise<OpenedPage>;
}

/** A browser test: its name, startTestServer's options, and its body. */
interface BrowserTestOptions<W extends SiteWorld> {
  name: string;
  /** startTestServer's options (e.g. `env` for an identity provider at the site's address). */
  server?: Parameters<typeof startTestServer>[0];
  fn(w: W, t: Deno.TestContext): Promise<void>;
}

/** The test file calling, for the line saying it is skipped (Deno runs each file as its main). */
function testFile(): string {
  return Deno.mainModule.split("/").pop() ?? Deno.mainModule;
}

/**
 * A browser test that launches its own Chromium (the installable-app test's, on a persistent
 * profile): skipped as `browserTest` is, and the site started and stopped, but no browser here.
 */
export function siteTest(options: BrowserTestOptions<SiteWorld>): void {
  Deno.test({
    name: options.name,
    ignore: skipBrowserTests(testFile()),
    // Chromium's pipes and the site's connections outlive the test's own awaits.
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      await using server = await startTestServer(options.server);
      await options.fn(siteWorld(server, t), t);
    },
  });
}

/** A test in Chromium against the site: launched after the site starts, closed before it stops. */
export function browserTest(options: BrowserTestOptions<BrowserWorld>): void {
  siteTest({
    name: options.name,
    server: options.server,
    async fn(site, t) {
      const browser = await launchBrowser();
      try {
        await options.fn({ ...site, browser, open: (o) => openPage(browser, site.server, o) }, t);
      } finally {
        await browser.close();
      }
    },
  });
}

function siteWorld(server: TestServer, t: Deno.TestContext): SiteWorld {
  let ok = true;
  return {
    server,
    signUp: (email) => signedInSession(server, email),
    async step(name, fn) {
      if (ok) ok = await t.step(name, fn);
    },
    stepsPassed: () => ok,
  };
}

async function openPage(
  browser: Browser,
  server: TestServer,
  options: OpenOptions = {},
): Promise<OpenedPage> {
  const { session, width = 1280, colorScheme, javaScriptEnabled, timezoneId } = options;
  const context = session === undefined
    ? await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme,
      javaScriptEnabled,
      timezoneId,
    })
    : await signedInContext(browser, server, session, {
      width,
      colorScheme,
      javaScriptEnabled,
      timezoneId,
    });
  const page = await context.newPage();
  page.setDefaultTimeout(options.timeout ?? 20_000);
  return { context, page, errors: pageErrors(page) };
}
