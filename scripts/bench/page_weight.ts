/**
 * Page weight and time to interactive: for the home page (signed in and out), a movie page,
 * /watched, /recommendations and /login, the JavaScript each page loads before it is
 * interactive (its module scripts and every module they import statically, gzip bytes), and
 * the time until its islands are hydrated on a throttled phone (slow 4G: 150 ms, 1.6 Mbit/s
 * down, 750 kbit/s up; CPU 4x slower), median of 3 cold loads. The baseline of the weights is
 * every island's code at once (what each page shipped when the site had one bundle); the
 * baseline of the times is the signed-out home page, which ships no island (only the service
 * worker's 219-byte registration, as every page does).
 */
import { chromium } from "playwright-core";
import { signedInSession } from "@/tests/helpers/browser_session.ts";
import {
  browserPath,
  CHROMIUM_ARGS,
  POPULAR_POOL,
  startTestServer,
} from "@/tests/helpers/server.ts";
import { SESSION_COOKIE } from "@/lib/web/session_cookie.ts";

const STATIC = new URL("../../static/", import.meta.url);

async function gzipBytes(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Files under static/ a module loads before running: itself and its static imports. */
async function moduleGraph(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = await Deno.readTextFile(new URL(file, STATIC));
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  // Minified static imports: `import{a as b}from"./x.js"` or `import"./x.js"`; not import().
  for (
    const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["'](\.\/[^"']+)["']/g)
  ) {
    await moduleGraph(dir + m[1].slice(2), seen);
  }
  return seen;
}

async function weight(files: Iterable<string>): Promise<number> {
  let total = 0;
  for (const file of files) total += await gzipBytes(await Deno.readFile(new URL(file, STATIC)));
  return total;
}

/** The static JavaScript files a page's HTML loads as module scripts. */
function scriptsOf(html: string): string[] {
  return [...html.matchAll(/<script[^>]*src="\/static\/([^"?]+)/g)].map((m) => m[1]);
}

/** Every JavaScript file of the build except split chunks loaded only by import(). */
async function allIslandsWeight(): Promise<number> {
  const entries: string[] = [];
  for await (const e of Deno.readDir(STATIC)) {
    // The single bundle of builds before static/islands/ (for a before-and-after run).
    if (e.isFile && e.name === "islands.js") entries.push(e.name);
    if (e.isDirectory && e.name === "islands") {
      for await (const f of Deno.readDir(new URL("islands/", STATIC))) {
        if (/^[A-Z_][A-Za-z0-9_]*\.js$/.test(f.name)) entries.push(`islands/${f.name}`);
      }
    }
  }
  const files = new Set<string>();
  for (const entry of entries) for (const f of await moduleGraph(entry)) files.add(f);
  return await weight(files);
}

export default async function pageWeight(): Promise<void> {
  await using server = await startTestServer();
  const session = await signedInSession(server, `weight-${crypto.randomUUID()}@example.test`);
  for (const movie of POPULAR_POOL.slice(0, 6)) {
    await fetch(`${server.url}/api/watched`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ catalogId: movie.id }),
    }).then((r) => r.body?.cancel());
  }
  const cookie = `${SESSION_COOKIE}=${encodeURIComponent(JSON.stringify(session))}`;
  const pages = [
    { name: "home, signed out", path: "/", signedIn: false },
    { name: "home", path: "/", signedIn: true },
    { name: "a movie", path: `/movies/${POPULAR_POOL[0].id}`, signedIn: true },
    { name: "/watched", path: "/watched", signedIn: true },
    { name: "/recommendations", path: "/recommendations", signedIn: true },
    { name: "/login", path: "/login", signedIn: false },
  ];
  const baseline = await allIslandsWeight();
  console.log(`every island at once (one bundle): ${(baseline / 1024).toFixed(1)} KB gzip`);

  const browser = await chromium.launch({ executablePath: browserPath(), args: CHROMIUM_ARGS });
  try {
    const times: Record<string, number> = {};
    for (const page of pages) {
      const html = await (await fetch(`${server.url}${page.path}`, {
        headers: page.signedIn ? { cookie } : {},
      })).text();
      const files = new Set<string>();
      for (const script of scriptsOf(html)) for (const f of await moduleGraph(script)) files.add(f);
      const bytes = await weight(files);
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const context = await browser.newContext({ viewport: { width: 412, height: 900 } });
        if (page.signedIn) {
          await context.addCookies([{
            name: SESSION_COOKIE,
            value: encodeURIComponent(JSON.stringify(session)),
            url: server.url,
          }]);
        }
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1024 * 1024) / 8,
          uploadThroughput: (750 * 1024) / 8,
        });
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await tab.goto(`${server.url}${page.path}`, { waitUntil: "load" });
        if (files.size) await tab.waitForSelector("html[data-hydrated]", { timeout: 60_000 });
        runs.push(await tab.evaluate(() => performance.now()));
        await context.close();
      }
      times[page.name] = runs.sort((a, b) => a - b)[1];
      console.log(
        `${page.name.padEnd(20)} JS ${(bytes / 1024).toFixed(1).padStart(6)} KB gzip ` +
          `(${(bytes / baseline).toFixed(2)} of one bundle), interactive ` +
          `${times[page.name].toFixed(0)} ms (${
            (times[page.name] / times["home, signed out"]).toFixed(2)
          }x the page without JavaScript)`,
      );
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.main) await pageWeight();
