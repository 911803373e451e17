/**
 * The whole site served for browser tests: the app built as tests/helpers/app.ts builds it,
 * but on a real port with SITE_URL set to it (the built-in provider's issuer), the wall
 * clock (supabase-js compares expiry with the browser's clock), a fake TMDB, a fake AI that
 * recommends popular movies, and a fake image server drawing SVG posters.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { systemClock } from "@/lib/core/clock.ts";
import { build } from "@/scripts/build.ts";
import { type TestApp, testApp } from "./app.ts";
import { type FakeAi, providersEnv, startFakeAi } from "./fake_ai.ts";
import { type FakeTmdb, POPULAR_FIXTURE_ROWS, startFakeTmdb, tmdbEnv } from "./fake_tmdb.ts";
import { modelLike, type SeedMovie } from "./recommend_world.ts";

/** A running site and its fakes. */
export interface TestServer extends AsyncDisposable {
  /** The site's origin, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  t: TestApp;
  tmdb: FakeTmdb;
  ai: FakeAi;
}

/** The popular movies of page 1, as the fake AI names them. */
export const POPULAR_POOL: SeedMovie[] = POPULAR_FIXTURE_ROWS.map((row) => ({
  id: Number(row.id),
  title: String(row.title),
  year: Number(String(row.release_date).slice(0, 4)),
}));

function posterSvg(path: string): string {
  let hash = 0;
  for (const ch of path) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="342" height="513" viewBox="0 0 342 513">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue} 55% 45%)"/>` +
    `<stop offset="1" stop-color="hsl(${(hue + 60) % 360} 60% 20%)"/></linearGradient></defs>` +
    `<rect width="342" height="513" fill="url(#g)"/>` +
    `<circle cx="171" cy="200" r="70" fill="hsl(${hue} 70% 75% / 0.35)"/></svg>`;
}

/** Starts fake image server: any path answers an SVG poster. */
function startImages(): { baseUrl: string; close(): Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      new Response(posterSvg(new URL(request.url).pathname), {
        headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=3600" },
      }),
  );
  return { baseUrl: `http://127.0.0.1:${server.addr.port}/t/p`, close: () => server.shutdown() };
}

/** Builds the islands bundle if stale, starts the fakes and serves the site; `await using` it. */
export async function startTestServer(
  options: {
    env?: (url: string) => Promise<Record<string, string>>;
    /** The app's fetch (a fake push service's, which trusts its own certificate). */
    fetch?: typeof fetch;
  } = {},
): Promise<TestServer> {
  await build(new URL("../../", import.meta.url).pathname.replace(/\/$/, ""), { ifStale: true });
  const tmdb = await startFakeTmdb();
  const ai = startFakeAi({ fallback: modelLike(POPULAR_POOL, 8) });
  const images = startImages();
  let handle: (request: Request) => Response | Promise<Response> = () =>
    new Response("starting", { status: 503 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handle(request),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const t = await testApp({
    clock: systemClock,
    fetch: options.fetch,
    env: {
      SITE_URL: url,
      ...tmdbEnv(tmdb),
      TMDB_IMAGE_BASE_URL: images.baseUrl,
      ...providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]),
      // A test's own settings that depend on the site's address (an identity provider's).
      ...(await options.env?.(url)),
    },
  });
  handle = (request) => t.app.fetch(request);
  // The popular page stores its movies, so the AI's titles resolve from the first request on.
  await (await t.app.request("/")).body?.cancel();
  const close = async () => {
    await server.shutdown();
    await t[Symbol.asyncDispose]();
    await images.close();
    await ai.close();
    await tmdb.close();
  };
  return { url, t, tmdb, ai, [Symbol.asyncDispose]: close };
}

/** The browser to drive: CHROME_PATH, else Debian's chromium, else undefined. */
export function browserPath(): string | undefined {
  for (const path of [Deno.env.get("CHROME_PATH"), "/usr/bin/chromium"]) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * Whether browser tests must be skipped: no browser and REQUIRE_BROWSER unset. Prints why.
 * With REQUIRE_BROWSER=1 they run (and fail on the missing browser).
 */
export function skipBrowserTests(file: string): boolean {
  if (browserPath() || Deno.env.get("REQUIRE_BROWSER") === "1") return false;
  console.log(
    `${file}: skipped, no browser (set CHROME_PATH or install /usr/bin/chromium; ` +
      `REQUIRE_BROWSER=1 makes this a failure)`,
  );
  return true;
}

/** The flags Chromium needs here: root, no GPU, no network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches the browser (one per test file); a missing one is an error saying so. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = browserPath();
  if (!executablePath) {
    throw new Error(
      "REQUIRE_BROWSER=1 but there is no browser: set CHROME_PATH or install chromium",
    );
  }
  return await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** The page's uncaught errors, and its Content-Security-Policy refusals (only console messages). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/** Waits until the page's islands are hydrated (lib/web/hydrate.ts marks <html>). */
export async function hydrated(page: Page, timeout = 20_000): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { timeout });
}
