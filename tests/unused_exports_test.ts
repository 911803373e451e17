/** The unused-export rule reads exports and imports precisely, and its fix edits only the export. */
import assert from "node:assert/strict";
import { exempt, findUnusedExports, parseModule } from "../scripts/export_graph.ts";
import { dropExport } from "../scripts/unused_exports.ts";

Deno.test("parseModule reads every form of export and import, and no doc comment", () => {
  const source = [
    `/**`,
    ` * import { inDoc } from "./doc.ts";`,
    ` */`,
    `import { a, type B, c as d } from "./x.ts";`,
    `import E, { f } from "./e.ts";`,
    `import * as ns from "./ns.ts";`,
    `import "./side.ts";`,
    `import { bare } from "hono";`,
    `export const one = 1;`,
    `export async function two() {}`,
    `export interface Three {}`,
    `export type Four<T> = T;`,
    `export class Five {}`,
    `export default function six() {}`,
    `export { seven, eight as nine };`,
    `export { ten, type Eleven as Twelve } from "./re.ts";`,
    `export * from "./star.ts";`,
    `export * as thirteen from "./space.ts";`,
    `const lazy = await import("./lazy.ts");`,
  ].join("\n");
  const module = parseModule("lib/m.ts", source);
  assert.deepEqual(module.exports.map((e) => e.name), [
    "one",
    "two",
    "Three",
    "Four",
    "Five",
    "default",
    "seven",
    "nine",
    "ten",
    "Twelve",
    "thirteen",
  ]);
  assert.deepEqual(module.stars, ["lib/star.ts"]);
  assert.deepEqual(module.imports, [
    ["lib/re.ts", "ten"],
    ["lib/re.ts", "Eleven"],
    ["lib/space.ts", "*"],
    ["lib/x.ts", "a"],
    ["lib/x.ts", "B"],
    ["lib/x.ts", "c"],
    ["lib/e.ts", "default"],
    ["lib/e.ts", "f"],
    ["lib/ns.ts", "*"],
    ["lib/lazy.ts", "*"],
  ]);
});

Deno.test("what the router, the manifest and the build read by name is exempt, and nothing else", () => {
  assert.ok(exempt("routes/api/watched.ts", "handler"));
  assert.ok(exempt("routes/index.tsx", "default"));
  assert.ok(exempt("routes/api/admin/_middleware.ts", "middleware"));
  assert.ok(exempt("islands/AddToList.tsx", "default"));
  assert.ok(exempt("scripts/bench/entries.ts", "default"));
  assert.ok(exempt("routes.gen.ts", "manifest"));
  assert.ok(exempt("lib/web/hydrate.ts", "hydrateIsland"));
  assert.ok(exempt("lib/identity/mfa/qrcode.d.ts", "default"));
  assert.ok(!exempt("routes/api/watched.ts", "helper"));
  assert.ok(!exempt("islands/AddToList.tsx", "AddToListProps"));
  assert.ok(!exempt("lib/library/entries/service.ts", "default"));
});

Deno.test("an export used only in its own file is reported; one imported anywhere, through a barrel too, is not", async () => {
  const root = await Deno.makeTempDir();
  try {
    const files: Record<string, string> = {
      "lib/a/x.ts":
        `export const used = 1;\nexport const viaBarrel = 2;\nexport const alone = 3;\n` +
        `export const viaStar = 4;\nconsole.log(alone);\n`,
      "lib/a/star.ts": `export const starred = 5;\nexport const notStarred = 6;\n`,
      "lib/a/mod.ts": `export { viaBarrel } from "./x.ts";\nexport * from "./star.ts";\n`,
      "routes/index.tsx":
        `import { used } from "../lib/a/x.ts";\nimport { viaBarrel, starred } from ` +
        `"../lib/a/mod.ts";\nexport const handler = {};\nexport default function Page() {}\n` +
        `export const stray = [used, viaBarrel, starred];\n`,
      "islands/I.tsx": `export default function I() {}\nexport interface IProps {}\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    }
    const found = (await findUnusedExports(root)).map((u) => `${u.file}:${u.line} ${u.name}`);
    assert.deepEqual(found, [
      "islands/I.tsx:2 IProps",
      "lib/a/star.ts:2 notStarred",
      "lib/a/x.ts:3 alone",
      "lib/a/x.ts:4 viaStar",
      "routes/index.tsx:5 stray",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the fix drops the export keyword or the list entry and nothing else", () => {
  const source = [
    `export const kept = 1;`,
    `export async function dropMe() {}`,
    `export {`,
    `  a,`,
    `  type B,`,
    `  c as d,`,
    `} from "./x.ts";`,
    `export { only } from "./y.ts";`,
  ].join("\n");
  const fixed = dropExport(
    dropExport(dropExport(source, { name: "only", line: 8 }), { name: "B", line: 3 }),
    { name: "dropMe", line: 2 },
  );
  assert.equal(
    fixed,
    [`export const kept = 1;`, `async function dropMe() {}`, `export { a, c as d } from "./x.ts";`]
      .join("\n"),
  );
});
