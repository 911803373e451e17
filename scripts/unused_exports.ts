/**
 * Lists the exported names nothing else in the repository imports (scripts/export_graph.ts);
 * with `--fix`, drops their `export` keyword (or their entry in an export list) and repeats
 * until none is left, since a barrel entry dropped can leave its source's export unused.
 * `deno run -A scripts/unused_exports.ts [--fix]`; tests/architecture_test.ts fails on any.
 */
import { findUnusedExports, type UnusedExport } from "./export_graph.ts";

/** `source` with the export of `name` on line `line` (1-based) made local or dropped. */
export function dropExport(source: string, unused: { name: string; line: number }): string {
  const lines = source.split("\n");
  const at = unused.line - 1;
  const line = lines[at];
  if (/^export\s+(?:type\s+)?\{/.test(line) || /^export\s+(?:type\s+)?\*\s+as\s/.test(line)) {
    return dropFromList(lines, at, unused.name).join("\n");
  }
  if (/^export\s+default\s+(?:async\s+)?(?:function|class)\s+[\w$]/.test(line)) {
    lines[at] = line.replace(/^export\s+default\s+/, "");
  } else if (/^export\s+(?!default)/.test(line)) lines[at] = line.replace(/^export\s+/, "");
  else throw new Error(`line ${unused.line}: cannot make "${unused.name}" local by hand-free edit`);
  return lines.join("\n");
}

// An `export { a, b as c } [from "…"]` statement from line `at`, without the entry named.
function dropFromList(lines: string[], at: number, name: string): string[] {
  let end = at;
  while (!lines[end].includes("}") && !/^export\s+(?:type\s+)?\*/.test(lines[end])) end++;
  const statement = lines.slice(at, end + 1).join("\n");
  const open = statement.indexOf("{");
  const close = statement.indexOf("}");
  const entries = open < 0
    ? []
    : statement.slice(open + 1, close).split(",").map((s) => s.trim()).filter(Boolean);
  const kept = entries.filter((e) => {
    const bare = e.replace(/^type\s+/, "");
    return (bare.split(/\s+as\s+/)[1] ?? bare).trim() !== name;
  });
  const replacement = open < 0 || kept.length === 0
    ? []
    : [`${statement.slice(0, open + 1)} ${kept.join(", ")} ${statement.slice(close)}`];
  return [...lines.slice(0, at), ...replacement, ...lines.slice(end + 1)];
}

/** One line per unused export, for a person to act on. */
export function describe(unused: UnusedExport[]): string[] {
  return unused.map((u) => `${u.file}:${u.line} exports "${u.name}", which nothing imports`);
}

if (import.meta.main) {
  const root = new URL("..", import.meta.url).pathname;
  let unused = await findUnusedExports(root);
  if (!Deno.args.includes("--fix")) {
    for (const line of describe(unused)) console.log(line);
    console.log(`${unused.length} unused export(s)${unused.length ? "; --fix drops them" : ""}`);
    Deno.exit(unused.length === 0 ? 0 : 1);
  }
  let dropped = 0;
  while (unused.length > 0) {
    // Bottom-up within a file, so earlier line numbers stay right.
    for (const u of [...unused].sort((a, b) => b.line - a.line)) {
      const path = `${root}/${u.file}`;
      try {
        await Deno.writeTextFile(path, dropExport(await Deno.readTextFile(path), u));
      } catch (error) {
        throw new Error(`${u.file}: ${(error as Error).message}`);
      }
      dropped++;
    }
    unused = await findUnusedExports(root);
  }
  console.log(`dropped ${dropped} export(s); run deno fmt and deno lint for code left dead`);
}
