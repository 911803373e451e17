/**
 * Statistics and dead rows for the embedded store (docs/entries.md): PGlite has no autovacuum
 * daemon, so the planner never learns how many rows a table holds and, without that, reads a
 * 10,000-film list in full to sort it instead of walking an index for the 61 rows of a page; and
 * a table rewritten row by row (the diary's stats tables during an import) keeps every dead row,
 * growing and slowing each later read. This does what autovacuum would: now and then, after a
 * call, a table with more than 50 rows + 20% dead is vacuumed and analyzed, one changed by more
 * than 50 rows + 10% since its last ANALYZE is analyzed, and no table twice within a minute
 * (autovacuum's own pace). Each of these statements holds the event loop while it runs, so
 * they are kept short: a sample of 3,000 rows a table (statistics target 10, not PostgreSQL's
 * 100: an ANALYZE of the 180,000 stats rows a 90,000-film import leaves took 80-110 ms at 30
 * and 26-39 ms at 10; the planner here needs row counts and rough spreads, not fine
 * histograms), and a turn of the event loop between two tables (after a 20 MiB import the
 * tables' upkeep back to back held it for about 490 ms, the longest stall of the whole run).
 */
import type { PGlite } from "@electric-sql/pglite";

/** How often, at most, the store looks for tables to analyze. */
const CHECK_EVERY_MS = 5_000;
/** How long, at least, between two upkeeps of one table (autovacuum's naptime). */
const AGAIN_AFTER_MS = 60_000;
/** The statistics target of the upkeep's ANALYZE: 300 rows sampled per unit. */
export const STATISTICS_TARGET = 10;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Tables left alone: an import's unmatched report grows by a row per unknown film (300,000 for a
 * 20 MiB file), is only ever read by its key and never updated, so statistics would steer
 * nothing while each ANALYZE of it would hold the event loop for longer as it grows.
 */
const NOT_ANALYZED = ["public.history_import_unmatched"];

// Autovacuum's default thresholds (vacuum: 50 rows + 20% dead; analyze: 50 + 10% changed), for
// tables not maintained within $2 seconds.
const STALE_SQL = `select format('%I.%I', s.schemaname, s.relname) as name,
       s.n_dead_tup > 50 + 0.2 * s.n_live_tup as vacuum
  from pg_catalog.pg_stat_user_tables s
 where (s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup
        or s.n_dead_tup > 50 + 0.2 * s.n_live_tup)
   and coalesce(greatest(s.last_analyze, s.last_vacuum), '-infinity')
       < pg_catalog.now() - pg_catalog.make_interval(secs => $2)
   and format('%I.%I', s.schemaname, s.relname) <> all($1::text[])`;

/**
 * Returns the step to await after each call: maintains stale tables, looking at most every
 * `everyMs` (5 s by default) and touching a table at most every `againAfterMs` (60 s), with
 * `turn` (a timer turn of the event loop) between two tables.
 */
export function autoAnalyze(
  db: PGlite,
  options: { everyMs?: number; againAfterMs?: number; turn?: () => Promise<void> } = {},
): () => Promise<void> {
  const everyMs = options.everyMs ?? CHECK_EVERY_MS;
  const turn = options.turn ?? nextTurn;
  const againAfterS = (options.againAfterMs ?? AGAIN_AFTER_MS) / 1000;
  // The first look comes a while after opening, so a short-lived store (a test) never pays it.
  let last = performance.now();
  let running = false;
  return async () => {
    if (running || performance.now() - last < everyMs) return;
    running = true;
    try {
      const stale = await db.query<{ name: string; vacuum: boolean }>(STALE_SQL, [
        NOT_ANALYZED,
        againAfterS,
      ]);
      // Only ANALYZE reads it; PGlite's one session keeps it for the next upkeep.
      if (stale.rows.length > 0) {
        await db.exec(`set default_statistics_target = ${STATISTICS_TARGET}`);
      }
      for (const [i, { name, vacuum }] of stale.rows.entries()) {
        if (i > 0) await turn();
        await db.exec(`${vacuum ? "vacuum analyze" : "analyze"} ${name}`);
      }
    } catch {
      // Upkeep only steers the planner and frees space: a failed look (the store closing)
      // changes no data.
    } finally {
      last = performance.now();
      running = false;
    }
  };
}
