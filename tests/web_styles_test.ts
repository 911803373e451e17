/**
 * The stylesheet's structure: one unclosed rule once turned every later rule into a nested
 * selector that matched nothing (37 rules dead, the recommendation cards and the account page
 * unstyled), and nothing failed. These checks read static/styles.css itself.
 */
import assert from "node:assert/strict";
import { classesOf, readCssBlocks } from "./helpers/css_blocks.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SHEET = await Deno.readTextFile(`${ROOT}static/styles.css`);

/** Every word of the files that render markup: a class the stylesheet styles must be one of them. */
async function sourceWords(dirs: string[]): Promise<Set<string>> {
  const words = new Set<string>();
  async function walk(dir: string) {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.(tsx?|js)$/.test(entry.name)) {
        for (const w of (await Deno.readTextFile(path)).match(/[\w-]+/g) ?? []) words.add(w);
      }
    }
  }
  for (const dir of dirs) await walk(`${ROOT}${dir}`);
  return words;
}

Deno.test("static/styles.css nests no style rule inside another and closes every block", () => {
  assert.deepEqual(readCssBlocks(SHEET).faults, []);
});

Deno.test("the stylesheet check reports a rule left open, and what it swallowed", () => {
  const sheet = [
    ".bar-count {",
    "  color: grey;",
    "  /* a comment { with a brace } */",
    "  .card-reason {",
    "    margin: 0;",
    "  }",
    "}",
    "@media (min-width: 40rem) {",
    "  .card { gap: 1rem; }",
    "}",
    "@keyframes spin { from { rotate: 0deg; } to { rotate: 1turn; } }",
    '.quote::before { content: "{"; }',
    ".open {",
  ].join("\n");
  assert.deepEqual(readCssBlocks(sheet).faults, [
    'line 4: ".card-reason" is nested in ".bar-count" (line 1)',
    'line 13: ".open" is never closed',
  ]);
  assert.deepEqual(readCssBlocks("a { b: c; } }").faults, ['line 1: a "}" closes nothing']);
});

Deno.test("every class the stylesheet styles is named by a component, island or route", async () => {
  // lib/web/pwa: the service worker writes the offline notice into a kept page.
  const words = await sourceWords([
    "components",
    "islands",
    "routes",
    "lib/web",
    "lib/http",
    "lib/web/pwa",
  ]);
  const styleRules = readCssBlocks(SHEET).blocks.filter((b) => !b.atRule);
  const unused = [...new Set(styleRules.flatMap((b) => classesOf(b.prelude)))]
    .filter((name) => !words.has(name));
  assert.deepEqual(unused, []);
});
