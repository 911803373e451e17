/**
 * Islands: server markers with serialisable props, the bundle built from islands/ by
 * scripts/build.ts (`--if-stale` skips an up-to-date bundle), and the static file server.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { build, CHUNK_FILE, entrySources, GRAPH_FILE, listIslands } from "../scripts/build.ts";
import { island } from "../lib/http/island.tsx";
import { emptyPageState, PageContext } from "../lib/http/page_context.ts";
import { testApp } from "./helpers/app.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { islandsOf } from "./helpers/web.ts";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

function Echo(props: { label: string; n: number; list?: number[] }) {
  return h("span", { class: "echo" }, `${props.label}:${props.n}`);
}

Deno.test("islands: a marker around the server render, carrying the props as JSON", () => {
  const ListGrid = island("ListGrid", Echo);
  const state = emptyPageState();
  const html = renderToString(
    h(PageContext.Provider, {
      value: state,
      children: h(ListGrid, { label: `a "quoted" <b>&'`, n: 3, list: [1, 2] }),
    }),
  );
  // The marker wraps the component's own server render, which hydration then takes over.
  const marker = parseHtml(html).firstElementChild;
  assert.equal(marker?.getAttribute("data-island"), "ListGrid");
  assert.equal(marker?.children.length, 1);
  assert.equal(marker?.firstElementChild?.className, "echo");
  assert.equal(textOf(marker!), `a "quoted" <b>&':3`);
  assert.deepEqual(islandsOf(html), [
    { name: "ListGrid", props: { label: `a "quoted" <b>&'`, n: 3, list: [1, 2] } },
  ]);
  assert.deepEqual([...state.islands], ["ListGrid"]);
});

Deno.test("islands: names must be files under islands/, props must be serialisable", () => {
  assert.throws(() => island("NoSuchIsland", Echo), /no islands\/NoSuchIsland\.tsx/);
  assert.throws(() => island("lowercase", Echo), /PascalCase/);
  const Bad = island("ListGrid", (_: { fn: () => void }) => null);
  assert.throws(() => renderToString(h(Bad, { fn: () => {} })), /not serialisable/);
});

Deno.test("islands: every island file has a default component", async () => {
  const islands = await listIslands(`${ROOT}/islands`);
  assert.ok(islands.length >= 5);
  for (const { name, file } of islands) {
    const module = await import(file);
    assert.equal(typeof module.default, "function", name);
  }
  const entries = entrySources(ROOT, islands);
  assert.deepEqual(
    Object.keys(entries).sort(),
    [...islands.map((i) => i.name), "_ready", "_worker"].sort(),
  );
  for (const { name } of islands) {
    assert.match(entries[name], new RegExp(`hydrateIsland\\("${name}", Island\\);`));
    assert.match(
      entries[name],
      /import \{ hydrateIsland \} from "file:\/\/\/.*lib\/web\/hydrate\.ts";/,
    );
  }
  assert.match(entries._ready, /islandsReady\(\);/);
  // Every page's worker registration imports only its own module (one small file, no chunk).
  assert.match(entries._worker, /lib\/web\/register_worker\.ts";\nregisterServiceWorker\(\);/);
});

Deno.test("islands: an entry per island, shared chunks, skipped while up to date", async () => {
  const dir = await Deno.makeTempDir({ prefix: "islands-build-" });
  try {
    assert.equal(await build(ROOT, { outDir: dir }), true);
    const names = (await listIslands(`${ROOT}/islands`)).map((i) => i.name);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    for (const name of [...names, "_ready", "_worker"]) {
      assert.ok(files.includes(`${name}.js`), name);
    }
    const ready = await Deno.readTextFile(`${dir}/_ready.js`);
    assert.equal(ready.split("\n")[0], `// islands: ${names.join(", ")}; _worker`);
    const graph: Record<string, string[]> = JSON.parse(
      await Deno.readTextFile(`${dir}/${GRAPH_FILE}`),
    );
    const chunks = files.filter((n) => CHUNK_FILE.test(n));
    for (const name of names) {
      const entry = await Deno.readTextFile(`${dir}/${name}.js`);
      // Bundled for the browser: no server modules (file reads, string rendering).
      assert.doesNotMatch(entry, /statSync|readFile|renderToString|node:/, name);
      // What it imports statically is listed for the page's modulepreload links.
      const imported = [...entry.matchAll(/from\s*"\.\/([^"]+)"/g)].map((m) => m[1]);
      for (const dep of imported) assert.ok(graph[name].includes(dep), `${name} -> ${dep}`);
      assert.ok(graph[name].every((dep) => chunks.includes(dep)), name);
    }
    // The worker's registration, which every page loads, is one small file importing nothing.
    assert.deepEqual(graph._worker, []);
    assert.ok((await Deno.stat(`${dir}/_worker.js`)).size < 1_000);
    // The sign-out button does not carry the search island's code, nor supabase-js (a quarter
    // of a megabyte, the header button of every signed-in page needs none of it).
    const signOut = new Set(graph.SignOutButton);
    assert.ok(graph.LiveSearch.some((dep) => !signOut.has(dep)));
    const supabaseJs = (deps: string[]) =>
      deps.some((dep) => Deno.readTextFileSync(`${dir}/${dep}`).includes("X-Supabase-Api-Version"));
    assert.ok(supabaseJs(graph.AuthForm), "the sign-in form does carry supabase-js");
    // Nor do the list and recommendation islands: they send the cookie's live token as it is.
    for (const name of ["SignOutButton", "ListButtons", "ListGrid", "Recommendations"]) {
      assert.ok(!supabaseJs(graph[name]), `${name} loads supabase-js only to refresh a token`);
    }
    // The strength estimator's dictionaries are split out, loaded by dynamic import only.
    const dictionaries = chunks.filter((n) =>
      Deno.readTextFileSync(`${dir}/${n}`).includes("qwertyuiop")
    );
    assert.ok(dictionaries.length > 0, "a chunk holds the keyboard graphs");
    for (const deps of Object.values(graph)) {
      assert.ok(deps.every((dep) => !dictionaries.includes(dep)), "never a static import");
    }
    assert.equal(await build(ROOT, { outDir: dir, ifStale: true }), false);
    // Any input (island, component, lib/web, deno.json) newer than the build makes it stale.
    const old = new Date(0);
    await Deno.utime(`${dir}/_ready.js`, old, old);
    assert.equal(await build(ROOT, { outDir: dir, ifStale: true }), true);
    // So does a build for other islands (the ready entry's banner names them).
    await Deno.writeTextFile(`${dir}/_ready.js`, "// islands: Other\n");
    assert.equal(await build(ROOT, { outDir: dir, ifStale: true }), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("static files: types, versioned caching, revalidation, no escape from static/", async (t) => {
  await using app = await testApp();

  await t.step("the stylesheet with its content type and an ETag", async () => {
    const response = await app.request("/static/styles.css");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(response.headers.get("cache-control"), "public, no-cache");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    const etag = response.headers.get("etag");
    assert.ok(etag);
    assert.match(await response.text(), /--bg:/);
    const again = await app.request("/static/styles.css", { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    await again.body?.cancel();
  });

  await t.step("the versioned URL the pages use is cached for good", async () => {
    const html = await (await app.request("/nope")).text();
    const href = /href="(\/static\/styles\.css\?v=\w+)"/.exec(html)?.[1];
    assert.ok(href);
    const response = await app.request(href);
    assert.equal(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
    await response.body?.cancel();
    const svg = await app.request("/static/favicon.svg", { method: "HEAD" });
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get("content-type"), "image/svg+xml");
    assert.equal(await svg.text(), "");
  });

  await t.step("text is gzipped for clients that accept it", async () => {
    const plain = await (await app.request("/static/styles.css")).arrayBuffer();
    const response = await app.request("/static/styles.css", {
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    assert.equal(response.headers.get("content-encoding"), "gzip");
    assert.equal(response.headers.get("vary"), "Accept-Encoding");
    assert.match(response.headers.get("etag") ?? "", /-gz"$/);
    const zipped = new Uint8Array(await response.arrayBuffer());
    assert.ok(zipped.byteLength < plain.byteLength / 2);
    const unzipped = await new Response(
      new Blob([zipped]).stream().pipeThrough(new DecompressionStream("gzip")),
    ).arrayBuffer();
    assert.deepEqual(new Uint8Array(unzipped), new Uint8Array(plain));
  });

  await t.step("anything else under /static is a plain 404", async () => {
    for (
      const path of [
        "/static/missing.css",
        "/static/../deno.json",
        "/static/%2e%2e/deno.json",
        "/static/.hidden.css",
        "/static/%",
        "/static/_middleware.ts",
      ]
    ) {
      const response = await app.request(path);
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(await response.text(), /"imports"/);
    }
  });
});

Deno.test("islands: the recommendations page explains each failure in plain words, with what it cost", async () => {
  const { explain } = await import("../islands/Recommendations.tsx");
  const { ApiError } = await import("../lib/web/api.ts");
  const quota = { limit: 20, remaining: 0, resetAt: "2026-11-24T00:00:00Z" };
  const notSpent = /didn't use any of today's requests/;
  const givenBack = /was given back/;
  const spent = /used one of today's requests/;
  const cases: [InstanceType<typeof ApiError>, RegExp, RegExp | null][] = [
    [
      new ApiError(400, "no_watched_movies", "No watched movies."),
      /Mark a few movies as watched/,
      notSpent,
    ],
    [
      new ApiError(429, "quota_exceeded", "Daily limit."),
      /used all 20 recommendation requests for today\. More are available after \d\d:\d\d, your time/,
      null,
    ],
    [new ApiError(503, "ai_unavailable", "No AI."), /unavailable right now/, givenBack],
    [new ApiError(500, "internal_error", "Oops."), /went wrong on our side/, givenBack],
    [new ApiError(409, "generation_in_progress", "Busy."), /already being prepared/, notSpent],
    [
      new ApiError(502, "ai_bad_output", "Bad."),
      /couldn't come up with good recommendations/,
      spent,
    ],
    [new ApiError(401, "unauthorized", "No."), /session has expired/, notSpent],
  ];
  for (const [error, message, cost] of cases) {
    const text = explain(error, quota);
    assert.match(text, message);
    if (cost) assert.match(text, cost);
    // Never the API's own wording, which reads like a log line.
    assert.ok(!text.includes(error.message), text);
  }
  assert.match(explain(new Error("x"), null), /Something went wrong/);
});
