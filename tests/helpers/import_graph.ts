/**
 * The import graph of the source tree, read with a small parser of import lines rather than
 * `deno info`: one root cannot reach every island and route, and the parser keeps `import type`
 * apart, which the island rule needs while the cycle rule still counts it.
 */
import { dirname, join, normalize, relative } from "node:path";

/** One import: the module it names (repo-relative path, or a bare specifier) and whether it is type-only. */
interface ImportEdge {
  to: string;
  typeOnly: boolean;
}

/** File (repo-relative, "/" separated) -> the imports it makes. */
export type ImportGraph = Map<string, ImportEdge[]>;

/** A specifier as written in the source, before resolution. */
interface RawImport {
  specifier: string;
  typeOnly: boolean;
}

// Anchored at line start so that doc comments (" * import ...") never match.
const STATIC = new RegExp(
  String.raw`^(import|export)\s+(type\s+)?` +
    String.raw`(?:([\w$]+\s*,\s*)?(\{[^}]*\}|\*\s+as\s+[\w$]+|\*|[\w$]+)\s+from\s+)?` +
    String.raw`["']([^"']+)["']`,
  "gm",
);
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Whether `{ type A, type B }` names only types (so the whole import is erased). */
function onlyTypes(braces: string): boolean {
  const names = braces.slice(1, -1).split(",").map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith("type "));
}

/** The imports and re-exports of one source text, dynamic `import("…")` included. */
export function parseImports(source: string): RawImport[] {
  const found: RawImport[] = [];
  for (const m of source.matchAll(STATIC)) {
    const [, , typeWord, defaultPart, clause, specifier] = m;
    const typeOnly = Boolean(typeWord) ||
      (!defaultPart && clause !== undefined && clause.startsWith("{") && onlyTypes(clause));
    found.push({ specifier, typeOnly });
  }
  for (const m of source.matchAll(DYNAMIC)) found.push({ specifier: m[1], typeOnly: false });
  return found;
}

/** deno.json's alias for the repository root: `@/lib/x.ts` is `lib/x.ts` from any file. */
const ROOT_ALIAS = "@/";

/** A specifier seen from `from` (repo-relative): the repo-relative path for "./x" and "@/x". */
export function localPath(from: string, specifier: string): string | undefined {
  if (specifier.startsWith(ROOT_ALIAS)) {
    return normalize(specifier.slice(ROOT_ALIAS.length)).replaceAll("\\", "/");
  }
  if (!specifier.startsWith(".")) return undefined;
  return normalize(join(dirname(from), specifier)).replaceAll("\\", "/");
}

/** A specifier seen from `from`: its repo-relative path when local, else the bare name. */
function resolveSpecifier(from: string, specifier: string): string {
  return localPath(from, specifier) ?? specifier;
}

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Reads every .ts/.tsx file under `folders` (relative to `root`) into an import graph. */
export async function readImportGraph(root: string, folders: string[]): Promise<ImportGraph> {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for await (const path of sourceFiles(join(root, folder))) {
      const file = relative(root, path).replaceAll("\\", "/");
      const imports = parseImports(await Deno.readTextFile(path));
      graph.set(
        file,
        imports.map((i) => ({ to: resolveSpecifier(file, i.specifier), typeOnly: i.typeOnly })),
      );
    }
  }
  return graph;
}
