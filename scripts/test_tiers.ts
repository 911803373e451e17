/**
 * The fast tier of the suite (docs/testing.md): the test files that open no store, start no
 * browser and spawn no process, found from what they and the test helpers they import use, so a
 * new file lands in the right tier without a list to keep.
 */
import { localPath, parseImports } from "../tests/helpers/import_graph.ts";

/** What puts a file, or a helper it imports, outside the fast tier. */
const NEEDS =
  /\b(testStore|testApp|openPgliteStore|openPostgresStore|openStore|Deno\.Command|playwright-core|launchBrowser|PGlite)\b/;

/**
 * The `*_test.ts` files under `dir` that need no store, browser or child process, sorted. `root`
 * is where deno.json maps the `@/` alias (the repository root), for imports written `@/tests/…`.
 */
export async function unitTestFiles(
  dir: URL,
  root: URL = new URL("../", import.meta.url),
): Promise<string[]> {
  const sources = new Map<string, string>();
  const read = async (url: URL): Promise<string> => {
    if (!sources.has(url.href)) sources.set(url.href, await Deno.readTextFile(url));
    return sources.get(url.href)!;
  };
  const heavy = new Map<string, boolean>();
  // A file is heavy when it, or a test file it imports, uses one of NEEDS; lib/ is not read,
  // since opening a store there is the test's choice, made through the helpers above.
  const isHeavy = async (url: URL, seen: Set<string>): Promise<boolean> => {
    if (heavy.has(url.href)) return heavy.get(url.href)!;
    if (seen.has(url.href)) return false;
    seen.add(url.href);
    const source = await read(url);
    let result = NEEDS.test(source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ""));
    for (const { specifier } of parseImports(source)) {
      if (result) break;
      const path = localPath(url.href.slice(root.href.length), specifier);
      if (path === undefined) continue;
      const target = new URL(path, root);
      if (!target.href.startsWith(dir.href) || !/\.tsx?$/.test(target.pathname)) continue;
      // Import lines inside a test's fixture strings name files that do not exist.
      if (!await Deno.stat(target).then(() => true, () => false)) continue;
      result = await isHeavy(target, seen);
    }
    heavy.set(url.href, result);
    return result;
  };
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith("_test.ts")) continue;
    if (!await isHeavy(new URL(entry.name, dir), new Set())) {
      files.push(decodeURIComponent(new URL(entry.name, dir).pathname));
    }
  }
  return files.sort();
}
