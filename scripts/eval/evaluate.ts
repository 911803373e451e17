/**
 * One evaluation from start to end (docs/recommend.md, "Measuring recommendations"): the world
 * (generated, or an instance's read without writing), the split, the embedded store holding what
 * the recommenders may see, and the measured rows.
 */
import { systemClock } from "@/lib/core/clock.ts";
import type { Config } from "@/lib/core/config.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { readInstance } from "./instance.ts";
import { loadWorld, movieColumns, openEvalStore } from "./load.ts";
import { recommenders } from "./recommenders.ts";
import { type Results, runEvaluation } from "./run.ts";
import { splitWorld } from "./split.ts";
import { generateWorld } from "./world.ts";

/** What to evaluate on. */
interface EvalOptions {
  /** The app's configuration: its AI providers decide whether the AI rows run. */
  config: Config;
  /** An instance's database, read only; absent: the generated world. */
  databaseUrl?: string;
  movies: number;
  users: number;
  seed: number;
  /** Users the AI recommenders run on (each costs provider calls). */
  aiUsers: number;
  /** Per provider attempt, as the app's (30 s by default). */
  timeoutMs?: number;
  progress?: (line: string) => void;
  /** A migrated, empty store to load the world into (tests pass one); left open. */
  store?: Store;
}

/** What was evaluated, in aggregate only, and the figures. */
export interface Evaluation extends Results {
  world: {
    kind: "generated" | "instance";
    seed?: number;
    movies: number;
    users: number;
    evaluated: number;
    skipped: number;
    watched: number;
  };
  seconds: { prepare: number; total: number };
}

/** Runs one evaluation; a store it made is closed before it returns. */
export async function evaluate(options: EvalOptions): Promise<Evaluation> {
  const started = performance.now();
  const store = options.store ?? await openEvalStore();
  const kv = await Deno.openKv(":memory:");
  try {
    const data = options.databaseUrl
      ? await readInstance(options.databaseUrl, { columns: await movieColumns(store) })
      : generateWorld(options);
    const split = splitWorld(data);
    await loadWorld(store, split.train);
    const prepared = performance.now();
    options.progress?.(
      `store ready: ${data.movies.length} movies, ${split.cases.length} users evaluated`,
    );
    const deps: AppDeps = {
      config: options.config,
      store,
      kv,
      clock: systemClock,
      fetch,
      log: () => {},
    };
    const results = await runEvaluation(recommenders(deps, { timeoutMs: options.timeoutMs }), {
      train: split.train,
      cases: split.cases,
      aiUsers: options.aiUsers,
      progress: options.progress,
    });
    return {
      ...results,
      world: {
        kind: options.databaseUrl ? "instance" : "generated",
        ...(options.databaseUrl ? {} : { seed: options.seed }),
        movies: data.movies.length,
        users: data.users.length,
        evaluated: split.cases.length,
        skipped: split.skipped,
        watched: data.users.reduce((a, u) => a + u.watched.length, 0),
      },
      seconds: {
        prepare: (prepared - started) / 1000,
        total: (performance.now() - started) / 1000,
      },
    };
  } finally {
    kv.close();
    if (!options.store) await store.close();
  }
}
