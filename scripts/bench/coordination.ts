/**
 * One step of the shared external window (`acquire({ wait: false })`, a place taken) on Deno
 * KV in-process (a SQLite file) against the same step on PostgreSQL over loopback
 * (COORDINATION=postgres), in alternating rounds; the figure is the median of the rounds' time
 * ratios. Target (issue 29): PostgreSQL ≤ 2x KV. For context it also measures PostgreSQL
 * without the one-statement counting step (read, decide, `coordination.commit`: the generic
 * path every other KV write takes).
 *
 *   TEST_DATABASE_URL=postgres://... deno task bench coordination
 */
import { createExternalWindow } from "@/lib/catalog/external_window.ts";
import { systemClock } from "@/lib/core/clock.ts";
import { PgKv } from "@/lib/platform/coordination/pg_kv.ts";
import type { Kv } from "@/lib/platform/kv/kv.ts";
import { TEST_DATABASE_URL, testStore } from "@/tests/helpers/store.ts";

const ROUNDS = 15;
const ROUND_MS = 300;
const WARM_UP = 300;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The PostgreSQL KV without its counting statement: takeCount reads, decides and commits.
function withoutCountStep(kv: PgKv): Kv {
  return {
    get: (key) => kv.get(key),
    set: (key, value, options) => kv.set(key, value, options),
    delete: (key) => kv.delete(key),
    list: (selector) => kv.list(selector),
    atomic: () => kv.atomic(),
    close: () => kv.close(),
  };
}

/** Mean milliseconds of one step over one round. */
async function stepMs(step: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS) {
    await step();
    n++;
  }
  return (performance.now() - start) / n;
}

/** Prints the window step's time on KV and on PostgreSQL and their ratio. */
export default async function bench(): Promise<void> {
  if (!TEST_DATABASE_URL) {
    console.log("coordination: skipped (set TEST_DATABASE_URL to a PostgreSQL server)");
    return;
  }
  const dir = await Deno.makeTempDir({ prefix: "movies-bench-kv-" });
  const denoKv = await Deno.openKv(`${dir}/kv.sqlite3`);
  await using store = await testStore("postgres");
  const pgKv = new PgKv(store, { clock: systemClock });
  try {
    // A limit no round reaches: every step takes a place (the commit path, not a refusal).
    const options = { clock: systemClock, limit: 1_000_000_000, prefix: ["bench", Date.now()] };
    const windows = {
      kv: createExternalWindow(denoKv, options),
      postgres: createExternalWindow(pgKv, options),
      generic: createExternalWindow(withoutCountStep(pgKv), { ...options, prefix: ["bench2"] }),
    };
    const steps = Object.fromEntries(
      Object.entries(windows).map(([name, w]) => [name, () => w.acquire({ wait: false })]),
    ) as Record<keyof typeof windows, () => Promise<unknown>>;
    for (const step of Object.values(steps)) for (let i = 0; i < WARM_UP; i++) await step();
    const names = Object.keys(steps) as (keyof typeof windows)[];
    const ms: Record<string, number[]> = { kv: [], postgres: [], generic: [] };
    const ratios: Record<string, number[]> = { postgres: [], generic: [] };
    for (let i = 0; i < ROUNDS; i++) {
      const round: Record<string, number> = {};
      for (const name of i % 2 ? [...names].reverse() : names) {
        round[name] = await stepMs(steps[name]);
      }
      for (const name of names) ms[name].push(round[name]);
      ratios.postgres.push(round.postgres / round.kv);
      ratios.generic.push(round.generic / round.kv);
    }
    const us = (name: string) => (median(ms[name]) * 1000).toFixed(0);
    console.log(
      `window step: Deno KV (SQLite file) ${us("kv")} µs, PostgreSQL (one statement) ${
        us("postgres")
      } µs, ratio ${
        median(ratios.postgres).toFixed(2)
      } (target ≤ 2); PostgreSQL read-decide-commit ${us("generic")} µs, ratio ${
        median(ratios.generic).toFixed(2)
      }`,
    );
  } finally {
    denoKv.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
