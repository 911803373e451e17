/** An in-memory catalog for the import service tests: pages of ids, detail calls, gates. */
import type { MovieSource, SearchRow } from "@/lib/catalog/types.ts";
import { Problem } from "@/lib/core/problem.ts";

/** A catalog in memory: popular pages of ids, a set of detailed ids, call counts and a gate. */
export function stubCatalog(
  pages: number[][],
  options: { failing?: Set<number>; failPages?: boolean | Error } = {},
) {
  const detailed = new Set<number>();
  const calls = { popular: [] as number[], prefetch: [] as number[] };
  let active = 0;
  let peak = 0;
  let gate: Promise<void> = Promise.resolve();
  let prefetchesStarted = 0;
  let heldFrom = Infinity;
  let heldGate: Promise<void> = Promise.resolve();
  const { promise: heldReached, resolve: reachHeld } = Promise.withResolvers<void>();
  const row = (id: number): SearchRow => ({
    id,
    title: `Movie ${id}`,
    original_title: `Movie ${id}`,
    poster_path: "/p.jpg",
    release_date: "2020-01-01",
    vote_average: 7,
    genre_ids: [],
  });
  const call = async <T>(fn: () => T): Promise<T> => {
    active++;
    peak = Math.max(peak, active);
    try {
      await gate;
      await new Promise((r) => setTimeout(r, 1));
      return fn();
    } finally {
      active--;
    }
  };
  const catalog: MovieSource = {
    search: () => Promise.reject(new Error("not used")),
    movie: () => Promise.reject(new Error("not used")),
    hotMovie: () => undefined,
    popular: (page) =>
      call(() => {
        calls.popular.push(page);
        if (options.failPages instanceof Error) throw options.failPages;
        if (options.failPages) throw new Problem(500, "upstream_error", "TMDB said no");
        const ids = pages[page - 1] ?? [];
        return {
          value: { page, totalPages: pages.length, results: ids.map(row) },
          headers: {},
        };
      }),
    staleIds: (ids) => Promise.resolve(ids.filter((id) => !detailed.has(id))),
    prefetch: async (ids) => {
      if (prefetchesStarted++ >= heldFrom) {
        reachHeld();
        await heldGate;
      }
      return await call(() => {
        calls.prefetch.push(...ids);
        const failed = ids.filter((id) => options.failing?.has(id));
        for (const id of ids) if (!failed.includes(id)) detailed.add(id);
        return {
          fetched: ids.length - failed.length,
          failed: failed.map((id) => ({ id, error: "upstream answered 500" })),
        };
      });
    },
  };
  return {
    catalog,
    detailed,
    calls,
    peak: () => peak,
    /** Lets `n` detail calls through, then holds the rest; `reached` once one is held. */
    holdDetailsAfter(n: number): { reached: Promise<void>; release: () => void } {
      const { promise, resolve } = Promise.withResolvers<void>();
      heldFrom = n;
      heldGate = promise;
      return { reached: heldReached, release: resolve };
    },
    /** Holds every call until the returned function is called. */
    hold(): () => void {
      const { promise, resolve } = Promise.withResolvers<void>();
      gate = promise;
      return () => {
        gate = Promise.resolve();
        resolve();
      };
    },
  };
}

/** `n` consecutive ids from `from`. */
export const range = (from: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => from + i);
