/**
 * The installable app on the server (docs/website.md, "Installable app"): the manifest and its
 * icons, the theme colours and manifest link on every page, the service worker's script, the
 * offline page, and the per-user scope header the worker keeps copies under.
 */
import assert from "node:assert/strict";
import { allIslandAssets } from "../lib/http/island_assets.ts";
import { assetUrl } from "../lib/http/static.ts";
import { pngSize } from "../scripts/icons/png.ts";
import { testApp } from "./helpers/app.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { createUser } from "./helpers/users.ts";
import { get, sessionCookie } from "./helpers/web.ts";

Deno.test("GET /manifest.webmanifest describes an installable standalone app", async () => {
  await using app = await testApp();
  const response = await app.request("/manifest.webmanifest");
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^application\/manifest\+json/);
  const manifest = await response.json();
  assert.equal(manifest.start_url, "/");
  assert.equal(manifest.display, "standalone");
  assert.ok(manifest.name && manifest.short_name.length <= 12);
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  assert.deepEqual(
    manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url]),
    [["Search", "/search"], ["My List", "/mylist"], ["Recommendations", "/recommendations"]],
  );
  assert.deepEqual(manifest.share_target.params, { title: "title", text: "text", url: "url" });
  const purposes = new Set<string>();
  for (const icon of manifest.icons) {
    const file = await app.request(icon.src);
    assert.equal(file.status, 200, icon.src);
    assert.equal(file.headers.get("content-type"), "image/png");
    const { width, height } = pngSize(new Uint8Array(await file.arrayBuffer()));
    assert.equal(`${width}x${height}`, icon.sizes, icon.src);
    purposes.add(`${icon.purpose} ${icon.sizes}`);
  }
  for (const need of ["any 192x192", "any 512x512", "maskable 512x512"]) {
    assert.ok(purposes.has(need), need);
  }
});

Deno.test("every page links the manifest and a theme colour for dark and light", async () => {
  await using app = await testApp();
  const user = await createUser(app.deps);
  for (
    const [path, init] of [["/", {}], ["/watched", {
      headers: { cookie: sessionCookie(user.token, user.email) },
    }]] as const
  ) {
    const doc = parseHtml((await get(app, path, init)).html);
    assert.equal(
      doc.querySelector('link[rel="manifest"]')?.getAttribute("href"),
      "/manifest.webmanifest",
    );
    const themes = Array.from(doc.querySelectorAll('meta[name="theme-color"]'))
      .map((m) => m.getAttribute("media"));
    assert.deepEqual(themes, ["(prefers-color-scheme: dark)", "(prefers-color-scheme: light)"]);
  }
});

Deno.test("GET /sw.js is the worker for the whole site with the shell to precache", async () => {
  await using app = await testApp();
  const response = await app.request("/sw.js");
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/javascript/);
  assert.equal(response.headers.get("service-worker-allowed"), "/");
  assert.equal(response.headers.get("cache-control"), "no-cache");
  const script = await response.text();
  const version = /^const VERSION = "([0-9a-f]{16})";$/m.exec(script)?.[1];
  assert.ok(version, "a version from the shell's files");
  const precache: string[] = JSON.parse(/^const PRECACHE = (.*);$/m.exec(script)?.[1] ?? "[]");
  assert.ok(precache.includes("/offline"));
  for (const asset of ["styles.css", "icons/icon-192.png"]) {
    // The versioned URLs the pages use, so the pages' own requests find them.
    assert.ok(precache.includes(assetUrl(asset)), asset);
  }
  // Every island's entry and the chunks they import, as the pages request them.
  assert.deepEqual(precache.filter((url) => url.startsWith("/static/islands/")), allIslandAssets());
  assert.ok(allIslandAssets().some((url) => url.startsWith(assetUrl("islands/SignOutButton.js"))));
  // The same shell gives the same script, so a browser reinstalls only after a build.
  assert.equal(await (await app.request("/sw.js")).text(), script);
});

Deno.test("a signed-in page names its user's offline scope; a signed-out page none", async () => {
  await using app = await testApp();
  const user = await createUser(app.deps);
  const signedIn = await get(app, "/mylist", {
    headers: { cookie: sessionCookie(user.token, user.email) },
  });
  assert.equal(signedIn.headers.get("x-offline-scope"), user.id);
  const signedOut = await get(app, "/mylist");
  assert.equal(signedOut.headers.get("x-offline-scope"), null);
});

Deno.test("GET /offline is the same for everyone and says what still opens", async () => {
  await using app = await testApp();
  const user = await createUser(app.deps);
  const { status, html } = await get(app, "/offline");
  assert.equal(status, 200);
  assert.match(textOf(html), /You are offline/);
  const links = Array.from(parseHtml(html).querySelectorAll("main a")).map((a) =>
    a.getAttribute("href")
  );
  assert.deepEqual(links, ["/watched", "/mylist", "/diary", "/lists"]);
  assert.doesNotMatch(html, new RegExp(user.email));
  // It is shown to whoever is offline, signed in or not: the header claims neither.
  const header = parseHtml(html).querySelector("header")!;
  assert.doesNotMatch(textOf(header.outerHTML), /Sign in|Sign up|Sign out/);
});
