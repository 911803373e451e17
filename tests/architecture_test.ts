/** The layering rules hold on the real tree, and the checker catches each kind of violation. */
import assert from "node:assert/strict";
import {
  AREAS,
  checkArchitecture,
  filesOutsideAreas,
  type RuleName,
} from "./helpers/architecture_rules.ts";
import { barrelViolations, nonBarrelLines } from "./helpers/barrel_rule.ts";
import { type ImportGraph, parseImports, readImportGraph } from "./helpers/import_graph.ts";
import { findUnusedExports } from "../scripts/export_graph.ts";
import { describe } from "../scripts/unused_exports.ts";
import { unitTestFiles } from "../scripts/test_tiers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** A synthetic graph from `file: [specifier, ...]`, a leading "type " marking a type-only import. */
function graphOf(files: Record<string, string[]>): ImportGraph {
  return new Map(
    Object.entries(files).map(([file, imports]) => [
      file,
      imports.map((i) => ({ to: i.replace(/^type /, ""), typeOnly: i.startsWith("type ") })),
    ]),
  );
}

const rulesBroken = (files: Record<string, string[]>): RuleName[] =>
  checkArchitecture(graphOf(files)).map((v) => v.rule);

Deno.test("lib, routes, islands and components break no layering rule", async () => {
  const graph = await readImportGraph(ROOT, ["lib", "routes", "islands", "components"]);
  const violations = checkArchitecture(graph).map((v) => v.message);
  assert.deepEqual(violations, []);
});

Deno.test("every lib/ file sits in one of the areas docs/architecture.md lists, in its order", async () => {
  const graph = await readImportGraph(ROOT, ["lib"]);
  assert.deepEqual(filesOutsideAreas(graph.keys()), []);
  const folders = [...Deno.readDirSync(`${ROOT}/lib`)].map((e) => e.name).sort();
  assert.deepEqual(folders, [...AREAS].sort());
  const doc = await Deno.readTextFile(`${ROOT}/docs/architecture.md`);
  const listed = [...doc.matchAll(/^\d+\. `([a-z]+)\/`/gm)].map((m) => m[1]);
  assert.deepEqual(listed, [...AREAS]);
});

Deno.test("the architecture check fails on an area importing one above it, type-only included", () => {
  assert.deepEqual(rulesBroken({ "lib/core/config.ts": ["lib/catalog/regions.ts"] }), [
    "area-order",
  ]);
  assert.deepEqual(rulesBroken({ "lib/catalog/x.ts": ["type lib/recommend/streaming.ts"] }), [
    "area-order",
  ]);
  assert.deepEqual(
    checkArchitecture(graphOf({ "lib/library/lists/cursor.ts": ["lib/web/position_cursor.ts"] }))
      .map((v) => v.message),
    [
      "lib/library/lists/cursor.ts imports lib/web/position_cursor.ts, but library sits below web " +
      `(lib/ areas from the bottom: ${AREAS.join(", ")})`,
    ],
  );
  // Downwards and within an area are fine; files outside lib/ are not ordered.
  assert.deepEqual(
    rulesBroken({
      "lib/recommend/x.ts": ["lib/library/entries/cards.ts", "lib/recommend/y.ts"],
      "lib/recommend/y.ts": ["lib/core/clock.ts"],
      "routes/index.tsx": ["lib/http/render.tsx"],
    }),
    [],
  );
  assert.deepEqual(filesOutsideAreas(["lib/kv.ts", "lib/misc/a.ts", "lib/core/clock.ts"]), [
    "lib/kv.ts",
    "lib/misc/a.ts",
  ]);
});

Deno.test("every mod.ts is a barrel: re-exports and comments only", async () => {
  assert.deepEqual(await barrelViolations(ROOT, ["lib", "routes", "islands", "components"]), []);
});

Deno.test("every exported name is imported by another file (deno run -A scripts/unused_exports.ts --fix drops the rest)", async () => {
  assert.deepEqual(describe(await findUnusedExports(ROOT)), []);
});

Deno.test("the barrel rule passes re-exports and comments and names anything else", () => {
  const barrel = [
    `/** The folder's face. */`,
    `export { a, type B } from "./a.ts";`,
    `export type { C } from "./c.ts";`,
    `export * from "./star.ts";`,
    `export type * from "./types.ts";`,
    `// why this one is public`,
    `export {`,
    `  d,`,
    `  type E,`,
    `} from "./d.ts";`,
  ].join("\n");
  assert.deepEqual(nonBarrelLines(barrel), []);
  assert.deepEqual(nonBarrelLines(`${barrel}\nexport const limit = 3;`), [
    "export const limit = 3;",
  ]);
  assert.deepEqual(nonBarrelLines(`import { a } from "./a.ts";\nexport { a };`), [
    `import { a } from "./a.ts";`,
    "export { a };",
  ]);
  assert.deepEqual(nonBarrelLines(`export function f() {}`), ["export function f() {}"]);
});

Deno.test("parseImports reads static, type-only, re-export, side-effect and dynamic imports", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from "./b.ts";`,
    `import { type C, type D } from "./c.ts";`,
    `import { type E, f } from "./e.ts";`,
    `import G, { h } from "hono";`,
    `import * as ns from "./ns.ts";`,
    `export { x } from "./x.ts";`,
    `export type { Y } from "./y.ts";`,
    `export * from "./star.ts";`,
    `import "./side.ts";`,
    `import {`,
    `  multi,`,
    `  type Line,`,
    `} from "./multi.ts";`,
    ` * import { doc } from "./not_an_import.ts";`,
    `const lazy = await import("./lazy.ts");`,
  ].join("\n");
  assert.deepEqual(parseImports(source), [
    { specifier: "./a.ts", typeOnly: false },
    { specifier: "./b.ts", typeOnly: true },
    { specifier: "./c.ts", typeOnly: true },
    { specifier: "./e.ts", typeOnly: false },
    { specifier: "hono", typeOnly: false },
    { specifier: "./ns.ts", typeOnly: false },
    { specifier: "./x.ts", typeOnly: false },
    { specifier: "./y.ts", typeOnly: true },
    { specifier: "./star.ts", typeOnly: false },
    { specifier: "./side.ts", typeOnly: false },
    { specifier: "./multi.ts", typeOnly: false },
    { specifier: "./lazy.ts", typeOnly: false },
  ]);
});

Deno.test("the architecture check passes a clean synthetic graph", () => {
  assert.deepEqual(
    rulesBroken({
      "routes/api/x.ts": ["hono", "lib/http/env.ts", "lib/catalog/service.ts"],
      "lib/http/env.ts": ["hono", "type lib/app/services.ts"],
      "lib/app/services.ts": ["lib/catalog/service.ts"],
      "lib/catalog/service.ts": ["lib/platform/store/types.ts", "lib/core/clock.ts"],
      "lib/platform/store/types.ts": ["lib/core/problem.ts", "postgres"],
      "lib/core/clock.ts": [],
      "lib/core/problem.ts": [],
      "islands/A.tsx": ["preact/hooks", "components/B.tsx", "lib/web/api.ts", "type lib/x/t.ts"],
      "components/B.tsx": [],
      "lib/web/api.ts": [],
    }),
    [],
  );
});

Deno.test("the architecture check fails on an import cycle, type-only edges included", () => {
  assert.deepEqual(rulesBroken({ "lib/a.ts": ["lib/b.ts"], "lib/b.ts": ["type lib/a.ts"] }), [
    "cycle",
  ]);
  assert.deepEqual(rulesBroken({ "lib/a.ts": ["lib/a.ts"] }), ["cycle"]);
  const long = checkArchitecture(graphOf({
    "lib/platform/store/mod.ts": ["lib/platform/store/pg.ts"],
    "lib/platform/store/pg.ts": ["lib/platform/store/types.ts"],
    "lib/platform/store/types.ts": ["type lib/platform/store/mod.ts"],
  }));
  assert.deepEqual(long.map((v) => v.message), [
    "import cycle: lib/platform/store/mod.ts -> lib/platform/store/pg.ts -> lib/platform/store/types.ts -> lib/platform/store/mod.ts",
  ]);
});

Deno.test("the architecture check fails on a service importing hono, lib/http or routes", () => {
  assert.deepEqual(rulesBroken({ "lib/identity/auth/gotrue.ts": ["type hono"] }), [
    "service-imports-http",
  ]);
  assert.deepEqual(rulesBroken({ "lib/limits.ts": ["hono/http-exception"] }), [
    "service-imports-http",
  ]);
  // An import from below into lib/http breaks the area order as well.
  assert.deepEqual(rulesBroken({ "lib/catalog/x.ts": ["type lib/http/env.ts"] }), [
    "area-order",
    "service-imports-http",
  ]);
  assert.deepEqual(rulesBroken({ "lib/catalog/import/x.ts": ["routes/api/admin/import.ts"] }), [
    "service-imports-http",
  ]);
  // The HTTP layer and the browser code are not services.
  assert.deepEqual(rulesBroken({ "lib/http/x.ts": ["hono"], "lib/web/y.ts": ["hono/client"] }), []);
});

Deno.test("the architecture check fails on an island importing server code at run time", () => {
  assert.deepEqual(rulesBroken({ "islands/A.tsx": ["lib/platform/store/mod.ts"] }), [
    "island-imports-server",
  ]);
  assert.deepEqual(rulesBroken({ "islands/A.tsx": ["lib/catalog/types.ts"] }), [
    "island-imports-server",
  ]);
  assert.deepEqual(rulesBroken({ "islands/A.tsx": ["routes/index.tsx"] }), [
    "island-imports-server",
  ]);
  assert.deepEqual(rulesBroken({ "islands/A.tsx": ["type lib/catalog/types.ts"] }), []);
});

Deno.test("the architecture check fails on the store importing a service", () => {
  // A service sits in an area above the platform, so the area order is broken as well.
  assert.deepEqual(rulesBroken({ "lib/platform/store/mod.ts": ["lib/catalog/service.ts"] }), [
    "area-order",
    "store-imports-service",
  ]);
  assert.deepEqual(rulesBroken({ "lib/platform/store/mod.ts": ["type lib/app/services.ts"] }), [
    "area-order",
    "store-imports-service",
  ]);
  // Within the platform too: the store stays off the jobs.
  assert.deepEqual(rulesBroken({ "lib/platform/store/mod.ts": ["lib/platform/jobs/job.ts"] }), [
    "store-imports-service",
  ]);
  assert.deepEqual(
    rulesBroken({ "lib/platform/store/mod.ts": ["lib/core/clock.ts", "lib/core/problem.ts"] }),
    [],
  );
});

Deno.test("the architecture check fails on lib/library/entries importing lib/identity/auth, even a type", () => {
  assert.deepEqual(
    rulesBroken({ "lib/library/entries/service.ts": ["type lib/identity/auth/mod.ts"] }),
    [
      "separate-services",
    ],
  );
  assert.deepEqual(
    rulesBroken({ "lib/library/entries/list_sql.ts": ["lib/identity/auth/sessions.ts"] }),
    [
      "separate-services",
    ],
  );
  // The HTTP edge handing auth's session to the lists is fine.
  assert.deepEqual(
    rulesBroken({
      "lib/http/app_env.ts": ["type lib/identity/auth/mod.ts", "type lib/library/entries/mod.ts"],
    }),
    [],
  );
});

Deno.test("the architecture check reads real files: a bad fixture tree fails every rule", async () => {
  const root = await Deno.makeTempDir();
  try {
    const files: Record<string, string> = {
      "lib/a.ts": `import type { B } from "./b.ts";\nexport const a = 1;\n`,
      "lib/b.ts": `import { a } from "./a.ts";\nexport type B = typeof a;\n`,
      "lib/identity/auth/x.ts": `import type { Context } from "hono";\nexport type X = Context;\n`,
      "lib/platform/store/mod.ts": `export { a } from "../a.ts";\n`,
      "islands/I.tsx": `import { a } from "../lib/a.ts";\nexport const i = a;\n`,
      "lib/core/c.ts": `import type { R } from "../recommend/r.ts";\nexport type C = R;\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    }
    const graph = await readImportGraph(root, ["lib", "islands"]);
    assert.deepEqual(checkArchitecture(graph).map((v) => `${v.rule} ${v.file}`).sort(), [
      "area-order lib/core/c.ts",
      "cycle lib/a.ts",
      "island-imports-server islands/I.tsx",
      "service-imports-http lib/identity/auth/x.ts",
      "store-imports-service lib/platform/store/mod.ts",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Writes `files` (repo-relative path: text) under a new temporary root, and returns the root. */
async function fixtureTree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  return root;
}

Deno.test("an import through the @/ alias (deno.json: the repository root) is an edge like a relative one", async () => {
  const root = await fixtureTree({
    "lib/core/x.ts": `import { y } from "@/lib/recommend/y.ts";\nexport const x = y;\n`,
    "lib/recommend/y.ts": `export const y = 1;\n`,
    "lib/core/a.ts": `import type { B } from "@/lib/core/b.ts";\nexport const a: B = 1;\n`,
    "lib/core/b.ts": `export type { A as B } from "./a_type.ts";\n` +
      `export const b = () => import("@/lib/core/a.ts");\n`,
    "lib/core/a_type.ts": `export type A = number;\n`,
    "lib/web/api.ts": `export const api = 1;\n`,
    "lib/platform/store/mod.ts": `export const store = 1;\n`,
    "islands/Good.tsx": `import { api } from "@/lib/web/api.ts";\nexport default () => api;\n`,
    "islands/Bad.tsx":
      `import { store } from "@/lib/platform/store/mod.ts";\nexport default () => store;\n`,
  });
  try {
    const graph = await readImportGraph(root, ["lib", "islands"]);
    assert.deepEqual(graph.get("lib/core/x.ts"), [{ to: "lib/recommend/y.ts", typeOnly: false }]);
    assert.deepEqual(graph.get("lib/core/b.ts"), [
      { to: "lib/core/a_type.ts", typeOnly: true },
      { to: "lib/core/a.ts", typeOnly: false },
    ]);
    assert.deepEqual(checkArchitecture(graph).map((v) => `${v.rule} ${v.file}`).sort(), [
      "area-order lib/core/x.ts",
      "cycle lib/core/a.ts",
      "island-imports-server islands/Bad.tsx",
    ]);
    // export_graph counts the aliased imports as uses: only what nothing imports is left.
    assert.deepEqual((await findUnusedExports(root)).map((u) => `${u.file} ${u.name}`), [
      "lib/core/b.ts b",
      "lib/core/x.ts x",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the fast tier follows a test's @/ imports into the helpers", async () => {
  // Spelled in two, so that this file itself stays in the fast tier.
  const heavy = "Deno." + "Command";
  const root = await fixtureTree({
    "tests/aliased_test.ts": `import { run } from "@/tests/helpers/spawn.ts";\nrun();\n`,
    "tests/relative_test.ts": `import { run } from "./helpers/spawn.ts";\nrun();\n`,
    "tests/light_test.ts": `import { pure } from "@/tests/helpers/pure.ts";\npure();\n`,
    "tests/helpers/spawn.ts": `export const run = () => new ${heavy}("true");\n`,
    "tests/helpers/pure.ts": `export const pure = () => 1;\n`,
  });
  try {
    const rootUrl = new URL(`file://${root}/`);
    const files = await unitTestFiles(new URL("tests/", rootUrl), rootUrl);
    assert.deepEqual(files, [`${root}/tests/light_test.ts`]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
