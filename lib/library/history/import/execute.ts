/**
 * One import run: units matched in order (the store first, a batch per query; then the
 * catalog search through the shared window, a bounded number at once, a few batches ahead so
 * the window stays busy), each batch applied in one transaction and its progress written
 * before the next, so a restart resumes after the last batch written.
 */
import { limiter } from "@/lib/core/async/limiter.ts";
import type { SearchRow } from "@/lib/catalog/types.ts";
import type { TitleSearch } from "@/lib/catalog/unique_match.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import type { BackgroundTurns } from "@/lib/core/async/background_turns.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { applyBatch } from "./apply.ts";
import { matchBySearch, matchInStore, type MatchResult } from "./match.ts";
import { finishRun, writeProgress } from "./run_progress.ts";
import { Slicer } from "./slices.ts";
import type { ImportUnit } from "./units.ts";
import { unitsInMemory, type UnitSource } from "./unit_source.ts";
import {
  type FilmCounts,
  type RunCounts,
  type StoredRun,
  UNMATCHED_IN_RUN,
  type UnmatchedEntry,
} from "./runs.ts";

/** What a run works with, and its tuning. */
interface RunOptions {
  store: Store;
  search: TitleSearch;
  clock: Clock;
  log: Logger;
  /** Stores the search rows matched, so the cards of those movies hydrate at once. */
  remember: (rows: SearchRow[]) => Promise<void>;
  /** Units per batch (one store lookup, one transaction, one progress write). */
  batchSize: number;
  /** Searches in flight; the window makes the extra ones wait. */
  concurrency: number;
  /** Batches matched ahead of the one being applied. */
  lookahead: number;
  /** The run's lease: its heartbeat is false once another instance has taken the run over. */
  lease: Pick<JobLease, "heartbeat">;
  /** The process's background scheduler, shared by every import (./slices.ts). */
  turns?: BackgroundTurns;
  /** Where the units come from (default: `run.units`, in memory). */
  units?: UnitSource;
}

// A run whose stored units are gone was cancelled (or taken over) meanwhile.
class UnitsGone extends Error {}

// How often a waiting run asks whether its lease is due for renewal (it renews a sixth of the
// lease's life apart, lib/platform/jobs/lease.ts).
const LEASE_CHECK_MS = 1000;

/** How a run ended; `abandoned` when another instance took it over. */
export type RunEnd = "succeeded" | "failed" | "abandoned";

function failure(error: unknown): string {
  return error instanceof Problem ? `${error.code}: ${error.message}` : "internal_error";
}

/** Logs why run `id` failed and records it `failed` with what it shows of `error`. */
export async function failRun(
  id: string,
  error: unknown,
  deps: { store: Store; clock: Clock; log: Logger },
): Promise<"failed"> {
  deps.log({
    level: "error",
    msg: "history import failed",
    importId: id,
    error: describeError(error),
  });
  await finishRun(deps.store, id, {
    status: "failed",
    finishedAt: deps.clock.now(),
    error: failure(error),
  }).catch(() => {});
  return "failed";
}

/** Carries `run` on from its cursor to the end; never throws. */
export async function executeImport(run: StoredRun, options: RunOptions): Promise<RunEnd> {
  const { store, clock, log, batchSize } = options;
  const units = options.units ?? unitsInMemory(run.units);
  const counts: RunCounts = { ...run.counts };
  const films: FilmCounts = { ...run.films, total: units.length };
  const firstUnmatched: UnmatchedEntry[] = run.unmatched.slice(0, UNMATCHED_IN_RUN);
  const gate = limiter(options.concurrency);
  // Rows not in any unit (not movies) are done from the start, and so are the rows of the units
  // before the cursor: each counted as matched or unmatched when its batch was written.
  let doneRows = counts.rows - units.rows + counts.matched + counts.unmatched;
  // The embedded store resolves its queries in microtasks: without a timer turn between
  // batches, a run that needs no network (ids from the file) would hold the event loop from
  // its first batch to its last (a 35-75 s stall for a 20 MiB Trakt export).
  const slicer = new Slicer(undefined, options.turns);

  const matchBatch = async (
    start: number,
  ): Promise<{ slice: ImportUnit[]; results: MatchResult[] }> => {
    const slice = await units.slice(start, start + batchSize);
    if (slice === null) throw new UnitsGone();
    const stored = await matchInStore(store, slice);
    const results = await Promise.all(
      slice.map((unit, i): MatchResult | Promise<MatchResult> => {
        if (unit.tmdbId !== undefined) return { id: unit.tmdbId };
        const id = stored[i];
        return id !== null ? { id } : gate(() => matchBySearch(unit, options.search));
      }),
    );
    return { slice, results };
  };

  // The lease is renewed while a batch waits too (searches waiting out a busy window can hold
  // one for minutes), so a poll elsewhere never takes a live run over; the loop's own
  // heartbeat below is what notices a lease lost.
  const beat = clock.every(LEASE_CHECK_MS, () => void options.lease.heartbeat().catch(() => {}));

  const pending = new Map<number, ReturnType<typeof matchBatch>>();
  const ahead = (start: number) => {
    if (start >= units.length || pending.has(start)) return;
    const promise = matchBatch(start);
    promise.catch(() => {}); // awaited in order below; a failure there ends the run
    pending.set(start, promise);
  };

  try {
    for (let start = run.cursor; start < units.length; start += batchSize) {
      for (let k = 0; k <= options.lookahead; k++) ahead(start + k * batchSize);
      const { slice, results } = await pending.get(start)!;
      pending.delete(start);
      const matched: { unit: (typeof slice)[number]; id: number }[] = [];
      const found: SearchRow[] = [];
      const unmatched: (UnmatchedEntry & { rows: number })[] = [];
      slice.forEach((unit, i) => {
        const result = results[i];
        if ("id" in result) {
          matched.push({ unit, id: result.id });
          counts.matched += unit.rows;
          films.matched++;
          if (result.found) found.push(result.found);
        } else {
          counts.unmatched += unit.rows;
          films.unmatched++;
          const entry = { title: unit.title, year: unit.year ?? null, reason: result.reason };
          unmatched.push({ ...entry, rows: unit.rows });
          if (firstUnmatched.length < UNMATCHED_IN_RUN) firstUnmatched.push(entry);
        }
      });
      // A turn between the batch's statements too: on the embedded store each is CPU work on
      // this thread (a batch of 50 took 60-70 ms of it in one piece on a busy machine).
      await slicer.tick();
      if (found.length > 0) await options.remember(found);
      const applied = await applyBatch(store, run.userId, matched, { now: clock.now() });
      await slicer.tick();
      counts.added += applied.added;
      counts.updated += applied.updated;
      counts.skipped += applied.skipped;
      // Present only when a list was full, so a run's counts read as before otherwise.
      if (applied.listFull > 0) counts.listFull = (counts.listFull ?? 0) + applied.listFull;
      if (applied.tooManyViewings > 0) {
        counts.tooManyViewings = (counts.tooManyViewings ?? 0) + applied.tooManyViewings;
      }
      doneRows += slice.reduce((n, u) => n + u.rows, 0);
      const progress = counts.rows === 0 ? 1 : Math.min(1, doneRows / counts.rows);
      const cursor = Math.min(units.length, start + batchSize);
      const written = await writeProgress(store, run, {
        cursor,
        progress,
        counts,
        films,
        firstUnmatched,
        unmatched,
      });
      if (!written) {
        return "abandoned";
      }
      await slicer.tick();
      if (!(await options.lease.heartbeat())) return "abandoned";
    }
    await finishRun(store, run.id, { status: "succeeded", finishedAt: clock.now() });
    return "succeeded";
  } catch (error) {
    if (error instanceof UnitsGone) return "abandoned";
    return await failRun(run.id, error, { store, clock, log });
  } finally {
    beat();
    slicer.done();
  }
}
