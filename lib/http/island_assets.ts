/**
 * The islands' files a page loads (scripts/build.ts writes them to static/islands/): a module
 * script per island the page renders, then the ready entry, and a modulepreload link for every
 * chunk those entries import, so a phone fetches them at once instead of one round trip after
 * another; and on every page, islands or none, the worker entry that registers the service
 * worker.
 */
import { assetUrl } from "./static.ts";

const GRAPH = new URL("../../static/islands/graph.json", import.meta.url);
/** The entry every page with islands loads last (scripts/build.ts READY_ENTRY). */
const READY = "_ready";
/** The entry every page loads (scripts/build.ts WORKER_ENTRY): it imports nothing. */
const WORKER = "_worker";

let cached: { mtime: number; graph: Record<string, string[]> } | undefined;

/** The build's entry graph, read again only when the build changed it; empty before a build. */
function entryGraph(): Record<string, string[]> {
  let mtime = 0;
  try {
    mtime = Deno.statSync(GRAPH).mtime?.getTime() ?? 0;
  } catch {
    return {};
  }
  if (cached?.mtime !== mtime) {
    cached = { mtime, graph: JSON.parse(Deno.readTextFileSync(GRAPH)) };
  }
  return cached.graph;
}

/**
 * The module scripts and preloads of a page rendering `islands` (none: only the worker entry,
 * a few hundred bytes, so the first page a visitor opens installs the offline shell).
 */
export function islandAssets(islands: Iterable<string>): { scripts: string[]; preloads: string[] } {
  const names = [...islands];
  if (!names.length) return { scripts: [assetUrl(`islands/${WORKER}.js`)], preloads: [] };
  const graph = entryGraph();
  const entries = [...names, READY, WORKER];
  const chunks = new Set(entries.flatMap((name) => graph[name] ?? []));
  return {
    scripts: entries.map((name) => assetUrl(`islands/${name}.js`)),
    // Chunks are content-hashed and imported without a version, as written in the entries.
    preloads: [...chunks].map((file) => `/static/islands/${file}`),
  };
}

/** Every entry of the build and the chunks they import: the installed app's shell keeps them. */
export function allIslandAssets(): string[] {
  const graph = entryGraph();
  const { scripts, preloads } = islandAssets(
    Object.keys(graph).filter((n) => n !== READY && n !== WORKER),
  );
  return [...scripts, ...preloads];
}
