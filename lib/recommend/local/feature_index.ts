/**
 * The local recommender's index (docs/recommend.md, "Local picks"): every stored movie's
 * features as small integers in typed arrays, one per process and store, read from
 * `public.movies` in pages and kept current by `features_rev` (a trigger numbers every row whose
 * features change): a request reads the highest number, and when it moved, only the rows after
 * the one it holds. Titles and cards stay in the store; the index holds what scoring needs.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import {
  apply,
  emptyIndex,
  type FeatureIndex,
  PAGE_SQL,
  parseRow,
  reweigh,
} from "./index_pages.ts";

export { type FeatureIndex, type FeatureKind, KIND_WEIGHTS } from "./index_pages.ts";

// Rows whose number was taken before a later one committed are read again this far back.
const SLACK = 1_000;
// A full rebuild then and there: compacts what replaced rows left behind, and catches a row a
// long transaction numbered below the watermark (SLACK covers the short ones).
const REBUILD_MS = 6 * 60 * 60 * 1000;

const PAGE = 10_000;
// A build off the request path reads smaller pages and lets the event loop run between them and
// between slices of rows, so no request waits long behind it (the embedded store runs its
// statements on the same thread).
const BACKGROUND_PAGE = 2_000;
const BACKGROUND_SLICE = 500;

/** A turn of the event loop: timers and requests waiting run before the build goes on. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function readAfter(
  sql: Sql,
  index: FeatureIndex,
  options: { from: number; background: boolean },
): Promise<void> {
  const size = options.background ? BACKGROUND_PAGE : PAGE;
  let after = options.from;
  for (;;) {
    const [page] = await sql.query<{ page: string | null; top: number | null; n: number }>(
      PAGE_SQL,
      [after, size],
    );
    if (!page?.page) break;
    const lines = page.page.split("\x1e");
    for (let i = 0; i < lines.length; i++) {
      apply(index, parseRow(lines[i]));
      if (options.background && i % BACKGROUND_SLICE === BACKGROUND_SLICE - 1) await pause();
    }
    after = Math.max(after, Number(page.top));
    if (Number(page.n) < size) break;
    if (options.background) await pause();
  }
  index.rev = Math.max(index.rev, after);
}

async function build(
  sql: Sql,
  options: { now: number; background: boolean },
): Promise<FeatureIndex> {
  const index = emptyIndex(options.now);
  await readAfter(sql, index, { from: 0, background: options.background });
  if (options.background) await pause();
  reweigh(index);
  return index;
}

interface Held {
  index: FeatureIndex | null;
  pending: Promise<FeatureIndex> | null;
  rebuilding: Promise<void> | null;
  /** Set by `buildInBackground`: cold requests then never build the index themselves. */
  background: boolean;
}

function heldOf(sql: Sql): Held {
  let h = held.get(sql);
  if (!h) held.set(sql, h = { index: null, pending: null, rebuilding: null, background: false });
  return h;
}

const held = new WeakMap<object, Held>();

/**
 * The current index of `sql`'s store: built on first use, brought up to date with the rows
 * changed since (one indexed read of the highest `features_rev` per call); after 6 hours a new
 * one is built beside it and takes its place when done, so no request waits for a rebuild.
 * Calls at once share one read.
 */
export function currentIndex(
  sql: Sql,
  options: {
    now: number; /** The highest features_rev, when the caller read it already. */
    top?: number;
  },
): Promise<FeatureIndex> {
  const state = heldOf(sql);
  if (state.pending) return state.pending;
  const run = async (): Promise<FeatureIndex> => {
    const old = state.index;
    if (!old) {
      return state.index = await build(sql, { now: options.now, background: state.background });
    }
    if (options.now - old.builtAt >= REBUILD_MS && !state.rebuilding) {
      state.rebuilding = build(sql, { now: options.now, background: true })
        .then((fresh) => {
          state.index = fresh;
        })
        // A failed rebuild leaves the index in use; a call 6 hours on tries again.
        .catch(() => {
          old.builtAt = options.now;
        })
        .finally(() => state.rebuilding = null);
    }
    const top = options.top ?? await topRev(sql);
    if (top > old.rev) {
      await readAfter(sql, old, { from: Math.max(0, old.rev - SLACK), background: false });
      reweigh(old);
    }
    return old;
  };
  state.pending = run().finally(() => state.pending = null);
  return state.pending;
}

/**
 * Starts building `sql`'s index off the request path (a process's start-up calls it): pages of
 * 2,000 rows with the event loop let run between pages and every 500 rows. From then on a request
 * that finds no index never builds one itself: `builtIndex` answers null while this runs (and
 * starts it again after a failure). Resolves when the index is ready; never rejects.
 */
export function buildInBackground(sql: Sql, options: { now: number }): Promise<void> {
  const state = heldOf(sql);
  state.background = true;
  if (state.index) return Promise.resolve();
  return currentIndex(sql, options).then(() => {}, () => {});
}

/**
 * The index when one is built (brought up to date as `currentIndex` does), or null while a
 * background build (`buildInBackground`) has not finished; without one, the first call builds it.
 */
export function builtIndex(
  sql: Sql,
  options: { now: number },
): Promise<FeatureIndex> | null {
  const state = heldOf(sql);
  if (state.index || !state.background) return currentIndex(sql, options);
  if (!state.pending) void buildInBackground(sql, options);
  return null;
}

/** The SQL of the highest features_rev (one index lookup), for a caller's own statement. */
export const TOP_REV_SQL = `(select coalesce(max(features_rev), 0)::float8 from public.movies)`;

async function topRev(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ rev: number }>(`select ${TOP_REV_SQL} as rev`);
  return Number(row?.rev ?? 0);
}

/** The features of a slot (a view into the pool). */
export function featuresOf(index: FeatureIndex, slot: number): Int32Array {
  const s = index.start[slot];
  return index.pool.subarray(s, s + index.len[slot]);
}

/** Bytes the index's arrays hold (the benchmark's figure beside RSS). */
export function indexBytes(index: FeatureIndex): number {
  return index.ids.byteLength + index.start.byteLength + index.len.byteLength +
    index.pool.byteLength + index.year.byteLength + index.runtime.byteLength +
    index.popularity.byteLength + index.voteAverage.byteLength + index.voteCount.byteLength +
    index.language.byteLength + index.df.byteLength + index.weight.byteLength +
    index.prior.byteLength + index.invNorm.byteLength;
}
