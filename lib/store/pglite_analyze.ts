/**
 * Statistics for the embedded store (docs/lists.md): PGlite has no autovacuum daemon, so the
 * planner never learns how many rows a table holds and, without that, reads a 10,000-film list
 * in full to sort it instead of walking an index for the 61 rows of a page. This does what
 * autovacuum's analyze would: now and then, after a call, the tables changed by more than
 * 50 rows + 10% since their last ANALYZE are analyzed.
 */
import type { PGlite } from "@electric-sql/pglite";

/** How often, at most, the store looks for tables to analyze. */
const CHECK_EVERY_MS = 5_000;

// Autovacuum's default analyze threshold: 50 rows plus 10% of the table.
const STALE_SQL = `select format('%I.%I', s.schemaname, s.relname) as name
  from pg_catalog.pg_stat_user_tables s
 where s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup`;

/**
 * Returns the step to await after each call: analyzes stale tables, at most every `everyMs`
 * (5 s by default).
 */
export function autoAnalyze(db: PGlite, options: { everyMs?: number } = {}): () => Promise<void> {
  const everyMs = options.everyMs ?? CHECK_EVERY_MS;
  // The first look comes a while after opening, so a short-lived store (a test) never pays it.
  let last = performance.now();
  let running = false;
  return async () => {
    if (running || performance.now() - last < everyMs) return;
    running = true;
    try {
      const stale = await db.query<{ name: string }>(STALE_SQL);
      for (const { name } of stale.rows) await db.exec(`analyze ${name}`);
    } catch {
      // Statistics only steer the planner: a failed look (the store closing) changes no data.
    } finally {
      last = performance.now();
      running = false;
    }
  };
}
