/**
 * The barrel rule: a `mod.ts` is a folder's public face and holds only re-exports
 * (`export { a, type B } from "./x.ts"`, `export type { C } from …`, `export * from …`) and
 * comments, so nobody has to look inside one for an implementation.
 */
import { join, relative } from "node:path";

const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
const RE_EXPORT = new RegExp(
  String.raw`export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+["'][^"']+["']\s*;?`,
  "g",
);

/** What a `mod.ts` holds beyond re-exports and comments, one entry per left-over line. */
export function nonBarrelLines(source: string): string[] {
  return source.replace(COMMENTS, "").replace(RE_EXPORT, "").split("\n")
    .map((line) => line.trim()).filter(Boolean);
}

async function* modFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* modFiles(path);
    else if (entry.name === "mod.ts") yield path;
  }
}

/** One line per `mod.ts` under `folders` (of `root`) that is not a barrel, naming what it holds. */
export async function barrelViolations(root: string, folders: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for await (const path of modFiles(join(root, folder))) {
      const extra = nonBarrelLines(await Deno.readTextFile(path));
      if (extra.length === 0) continue;
      const file = relative(root, path).replaceAll("\\", "/");
      found.push(`${file} is a barrel but holds more than re-exports: ${extra[0]}`);
    }
  }
  return found.sort();
}
