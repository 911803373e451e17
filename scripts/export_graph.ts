/**
 * Which exported names the repository imports (docs/architecture.md, "The rules the tests hold"): every .ts/.tsx file's
 * exports and the names other files import or re-export from it, read with a small parser of
 * top-level `import`/`export` lines, as tests/helpers/import_graph.ts reads the import graph.
 * An export nothing else imports is reported, except what a convention reads by name.
 */
import { join } from "node:path";
import { localPath } from "../tests/helpers/import_graph.ts";

/** The folders and top-level files whose sources are read. */
const SOURCES = ["lib", "routes", "components", "islands", "scripts", "tests", "main.ts", "app.ts"];

/** An exported name nothing else imports, and the line of its export. */
export interface UnusedExport {
  file: string;
  name: string;
  line: number;
}

interface Export {
  name: string;
  line: number;
  /** Re-exported from this file (repo-relative) under `from`; undefined for a local export. */
  source?: string;
  from?: string;
}

interface Module {
  exports: Export[];
  /** `export * from` targets. */
  stars: string[];
  /** (target file, imported name); "*" marks every export of the target used. */
  imports: [string, string][];
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:const\s+enum|function\*?|const|let|var|class|interface|type|enum|namespace)\s+([\w$]+)/gm;
const DEFAULT = /^export\s+default\b/gm;
const LIST = /^export\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s+["']([^"']+)["'])?/gm;
const STAR = /^export\s+(?:type\s+)?\*(?:\s+as\s+([\w$]+))?\s+from\s+["']([^"']+)["']/gm;
const IMPORT =
  /^import\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(\{[^}]*\}|\*\s+as\s+[\w$]+)?\s*from\s+["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Names exempt by convention: what the router, the manifest and the build read by name. */
export function exempt(file: string, name: string): boolean {
  // Generated files, and declaration files a `// @ts-types` comment names for a package.
  if (/\.gen\.ts$|\.d\.ts$/.test(file)) return true;
  if (file.startsWith("routes/")) {
    return ["handler", "default", "middleware", "skip"].includes(name);
  }
  if (file.startsWith("islands/") || file.startsWith("scripts/bench/")) return name === "default";
  // scripts/build.ts writes the entries that import these (entrySources).
  if (file === "lib/web/hydrate.ts") return ["hydrateIsland", "islandsReady"].includes(name);
  if (file === "lib/web/register_worker.ts") return name === "registerServiceWorker";
  return false;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

// `a`, `type a`, `a as b`: [imported or local name, name outside].
function names(list: string): [string, string][] {
  return list.split(",").map((s) => s.trim().replace(/^type\s+/, "")).filter(Boolean)
    .map((s) => {
      const [inner, outer] = s.split(/\s+as\s+/);
      return [inner.trim(), (outer ?? inner).trim()];
    });
}

/** The exports and imports of one source text (`file` repo-relative, for resolving). */
export function parseModule(file: string, source: string): Module {
  // Anchored at line start, so a doc comment's " * import …" never counts.
  const text = source;
  const module: Module = { exports: [], stars: [], imports: [] };
  for (const m of text.matchAll(DECLARATION)) {
    const isDefault = /^export\s+(?:declare\s+)?default\b/.test(m[0]);
    module.exports.push({ name: isDefault ? "default" : m[1], line: lineOf(text, m.index) });
  }
  for (const m of text.matchAll(DEFAULT)) {
    if (!module.exports.some((e) => e.name === "default")) {
      module.exports.push({ name: "default", line: lineOf(text, m.index) });
    }
  }
  for (const m of text.matchAll(LIST)) {
    const source = m[2] === undefined ? undefined : localPath(file, m[2]);
    for (const [inner, outer] of names(m[1])) {
      module.exports.push({ name: outer, line: lineOf(text, m.index), source, from: inner });
      if (source) module.imports.push([source, inner]);
    }
  }
  for (const m of text.matchAll(STAR)) {
    const target = localPath(file, m[2]);
    if (!target) continue;
    if (m[1]) {
      module.exports.push({ name: m[1], line: lineOf(text, m.index) });
      module.imports.push([target, "*"]);
    } else module.stars.push(target);
  }
  for (const m of text.matchAll(IMPORT)) {
    const target = localPath(file, m[3]);
    if (!target) continue;
    if (m[1]) module.imports.push([target, "default"]);
    if (m[2]?.startsWith("{")) {
      for (const [inner] of names(m[2].slice(1, -1))) module.imports.push([target, inner]);
    } else if (m[2] && !/\.gen\.ts$/.test(file)) {
      // A namespace import may use any name; the generated manifests' are the convention's.
      module.imports.push([target, "*"]);
    }
  }
  for (const m of text.matchAll(DYNAMIC)) {
    const target = localPath(file, m[1]);
    if (target) module.imports.push([target, "*"]);
  }
  return module;
}

async function* sourceFiles(root: string, path: string): AsyncGenerator<string> {
  const info = await Deno.stat(join(root, path)).catch(() => null);
  if (!info) return;
  if (info.isFile) {
    if (/\.tsx?$/.test(path)) yield path;
    return;
  }
  for await (const entry of Deno.readDir(join(root, path))) {
    yield* sourceFiles(root, `${path}/${entry.name}`);
  }
}

/** Every exported name under `root` that no other file imports, by file and line. */
export async function findUnusedExports(root: string): Promise<UnusedExport[]> {
  const modules = new Map<string, Module>();
  const top = [...SOURCES];
  for await (const entry of Deno.readDir(root)) {
    if (entry.name.endsWith(".gen.ts")) top.push(entry.name);
  }
  for (const path of top) {
    for await (const file of sourceFiles(root, path)) {
      const text = await Deno.readTextFile(join(root, file));
      modules.set(file, parseModule(file, text));
    }
  }
  const used = new Set<string>();
  const use = (file: string, name: string, seen = new Set<string>()) => {
    const key = `${file}|${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    used.add(key);
    const module = modules.get(file);
    if (!module) return;
    for (const e of module.exports) {
      if (e.source && (name === "*" || e.name === name)) use(e.source, e.from!, seen);
    }
    for (const star of module.stars) use(star, name, seen);
  };
  for (const [, module] of modules) for (const [target, name] of module.imports) use(target, name);
  const unused: UnusedExport[] = [];
  for (const [file, module] of modules) {
    if (used.has(`${file}|*`)) continue;
    for (const e of module.exports) {
      if (!used.has(`${file}|${e.name}`) && !exempt(file, e.name)) {
        unused.push({ file, name: e.name, line: e.line });
      }
    }
  }
  return unused.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
