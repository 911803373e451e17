/**
 * The layering rules (docs/architecture.md), checked on an import graph (see import_graph.ts):
 * no cycles; each lib/ area imports only the areas below it; services know nothing of HTTP;
 * islands ship only browser code; the store sits below every service; and a few services stay
 * off each other (`SEPARATE`).
 */
import type { ImportGraph } from "./import_graph.ts";

/** The kinds of rule a graph can break. */
export type RuleName =
  | "cycle"
  | "area-order"
  | "service-imports-http"
  | "island-imports-server"
  | "store-imports-service"
  | "separate-services";

/** One broken rule: which, where, and a line a person can act on. */
interface Violation {
  rule: RuleName;
  file: string;
  message: string;
}

/**
 * lib/'s areas from the bottom up: a file in one imports only its own area and those before it
 * (docs/architecture.md, "lib/ in areas"), type-only imports included.
 */
export const AREAS = [
  "core",
  "platform",
  "identity",
  "catalog",
  "library",
  "recommend",
  "connections",
  "app",
  "openapi",
  "web",
  "http",
] as const;

/** The area of a lib/ file (`lib/<area>/…`), undefined for anything else. */
function areaOf(file: string): number | undefined {
  const match = /^lib\/([^/]+)\//.exec(file);
  if (!match) return undefined;
  const index = (AREAS as readonly string[]).indexOf(match[1]);
  return index === -1 ? undefined : index;
}

/** The lib/ files that sit in no area: loose files, or folders the order does not name. */
export function filesOutsideAreas(files: Iterable<string>): string[] {
  return [...files].filter((f) => f.startsWith("lib/") && areaOf(f) === undefined).sort();
}

/** lib/ folders that are not services: the HTTP edge and the browser code. */
const NOT_SERVICE = ["lib/http/", "lib/web/"];
/** Where an island may import runtime code from. */
const BROWSER_SIDE = [
  "islands/",
  "components/",
  "lib/web/",
  // The list editor's position cursor is the one wire format the browser writes and
  // lib/library/lists reads; it lives in core so that the library need not import web.
  "lib/core/position_cursor.ts",
];
/**
 * Top-level lib files the store may use: shared infrastructure, not services. Everything else in
 * lib/ outside lib/platform/store/ (service folders and top-level service files) counts as a service.
 */
const STORE_MAY_USE = new Set([
  "lib/core/clock.ts",
  "lib/core/config.ts",
  "lib/core/log.ts",
  "lib/core/problem.ts",
  "lib/platform/kv/kv.ts",
]);
/** lib/ folders of such infrastructure: the async helpers (deadline, limiter, pool, retry). */
const STORE_MAY_USE_FOLDERS = ["lib/core/async/"];

/**
 * Services that must not import one another, type-only imports included: the importer's folder,
 * the folder it stays off, and what it does instead.
 */
const SEPARATE: { from: string; to: string; instead: string }[] = [
  {
    from: "lib/library/entries/",
    to: "lib/identity/auth/",
    instead: "lists take the session as a SessionCheck (lib/platform/session_check.ts)",
  },
];

const isService = (f: string) => f.startsWith("lib/") && !NOT_SERVICE.some((p) => f.startsWith(p));
const isHttp = (to: string) =>
  to === "hono" || to.startsWith("hono/") || to.startsWith("npm:hono") ||
  to.startsWith("lib/http/") || to.startsWith("routes/");

/** Every import cycle among the graph's own files (type-only imports included), one path each. */
function findCycles(graph: ImportGraph): string[][] {
  // Tarjan's strongly connected components; each component with a loop holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  const next = (f: string) => (graph.get(f) ?? []).map((e) => e.to).filter((t) => graph.has(t));
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) components.push(component);
    }
  };
  for (const f of [...graph.keys()].sort()) if (!index.has(f)) visit(f);
  return components.map((c) => cyclePath(c.sort()[0], new Set(c), next));
}

/** A shortest path from `start` back to itself inside one strongly connected component. */
function cyclePath(start: string, within: Set<string>, next: (f: string) => string[]): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next(v).filter((x) => within.has(x))) {
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(parent.get(path[0])!);
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** All violations of the layering rules in `graph`, cycles first; empty when the tree is clean. */
export function checkArchitecture(graph: ImportGraph): Violation[] {
  const found: Violation[] = findCycles(graph).map((path) => ({
    rule: "cycle",
    file: path[0],
    message: `import cycle: ${path.join(" -> ")}`,
  }));
  for (const [file, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    for (const { to, typeOnly } of edges) {
      const [from, into] = [areaOf(file), areaOf(to)];
      if (from !== undefined && into !== undefined && into > from) {
        found.push({
          rule: "area-order",
          file,
          message: `${file} imports ${to}, but ${AREAS[from]} sits below ${AREAS[into]} ` +
            `(lib/ areas from the bottom: ${AREAS.join(", ")})`,
        });
      }
      if (isService(file) && isHttp(to)) {
        found.push({
          rule: "service-imports-http",
          file,
          message: `${file} is a service but imports ${to}`,
        });
      }
      const local = /\.[jt]sx?$/.test(to) && !to.includes(":");
      if (
        file.startsWith("islands/") && !typeOnly && local &&
        !BROWSER_SIDE.some((p) => to.startsWith(p))
      ) {
        found.push({
          rule: "island-imports-server",
          file,
          message: `${file} ships to the browser but imports ${to} (not a type-only import)`,
        });
      }
      for (const rule of SEPARATE) {
        if (file.startsWith(rule.from) && to.startsWith(rule.to)) {
          found.push({
            rule: "separate-services",
            file,
            message:
              `${file} imports ${to}, but ${rule.from} stays off ${rule.to}: ${rule.instead}`,
          });
        }
      }
      if (
        file.startsWith("lib/platform/store/") && to.startsWith("lib/") &&
        !to.startsWith("lib/platform/store/") &&
        !STORE_MAY_USE.has(to) && !STORE_MAY_USE_FOLDERS.some((p) => to.startsWith(p))
      ) {
        found.push({
          rule: "store-imports-service",
          file,
          message: `${file} is the store but imports the service ${to}`,
        });
      }
    }
  }
  return found;
}
