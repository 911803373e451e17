/**
 * The sweep of expired coordination rows (docs/coordination.md): reads already skip them, so
 * this only keeps the table small. It runs on a timer off the request path, in bounded rounds;
 * several instances sweeping at once skip each other's rows.
 */
import type { Clock } from "@/lib/core/clock.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import type { Sql } from "../store/mod.ts";

/** Rows one round deletes at most. */
const ROUND_ROWS = 1000;
/** Rounds one sweep runs at most (then the rest waits for the next sweep). */
const MAX_ROUNDS = 10;
/** How often an instance sweeps. */
const SWEEP_EVERY_MS = 60_000;

/** Deletes rows expired by `clock`, at most `maxRounds` rounds of `roundRows`; how many went. */
export async function sweepExpired(
  sql: Sql,
  options: { clock: Clock; roundRows?: number; maxRounds?: number },
): Promise<number> {
  const roundRows = options.roundRows ?? ROUND_ROWS;
  let gone = 0;
  for (let round = 0; round < (options.maxRounds ?? MAX_ROUNDS); round++) {
    const [row] = await sql.query<{ gone: number }>(
      "select coordination.sweep($1::bigint, $2::integer) as gone",
      [Math.floor(options.clock.now()), roundRows],
    );
    gone += Number(row.gone);
    if (Number(row.gone) < roundRows) break;
  }
  return gone;
}

/** Sweeps every minute of `clock` until the returned function is called; failures are logged. */
export function startSweeping(sql: Sql, options: { clock: Clock; log: Logger }): () => void {
  let running = false;
  return options.clock.every(SWEEP_EVERY_MS, () => {
    if (running) return;
    running = true;
    sweepExpired(sql, options)
      .catch((error) =>
        options.log({
          level: "warn",
          msg: "coordination sweep failed",
          error: describeError(error),
        })
      )
      .finally(() => (running = false));
  });
}
