/**
 * The details job as a service (docs/catalog.md, "The details job"), one of the background jobs
 * (lib/platform/jobs/job.ts): `start` takes the job's lease (one run at a time across every
 * instance), records the run and carries it on in the background through its own catalog over
 * the quarter share of the shared window; `ask` is the cheap signal an import, a webhook or an
 * AI pick gives (a run starts soon, asks coalesced); `runs` lists the recent ones.
 * `failInterruptedDetailsRuns` is its restart step; `scheduledDetails` a cron tick.
 */
import { createCatalogService } from "../service.ts";
import { createExternalWindow, type ExternalWindow } from "../external_window.ts";
import type { KvKey } from "@/lib/platform/kv/kv.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import { cronTick } from "@/lib/platform/jobs/cron.ts";
import { failInterruptedRuns } from "@/lib/platform/jobs/interrupted.ts";
import type { Job, RunStart } from "@/lib/platform/jobs/job.ts";
import { startJobRun } from "@/lib/platform/jobs/start.ts";
import { backgroundStore } from "@/lib/platform/store/mod.ts";
import { DETAILS_LOCK_TTL_MS, type DetailsParams, detailsRecords } from "./job.ts";
import { quarterWindow } from "./quarter_window.ts";
import { type DetailsOutcome, executeDetailsRun } from "./execute.ts";
import { type DetailsRun, listRuns } from "./runs.ts";

/**
 * How long after an ask the run starts: asks within it (a webhook storm, an import's end and
 * an AI round together) are one run, and what asked has stored its rows by then.
 */
export const ASK_DELAY_MS = 10_000;
/** When a run was last asked for, shared by the instances: a run going on elsewhere looks at it when it ends. */
const ASKED_KEY: KvKey = ["details", "asked"];

/** A run just started, and its outcome to come (never rejects). */
interface StartedDetailsRun {
  runId: string;
  status: "running";
  done: Promise<DetailsOutcome>;
}

/** What the admin route, the cron and the features that store films call. */
export interface DetailsService {
  /** Starts a run; 409 `details_running` while one runs anywhere. */
  start(options?: { trigger?: RunStart }): Promise<StartedDetailsRun>;
  /** The last 20 runs, newest first. */
  runs(): Promise<DetailsRun[]>;
  /**
   * Asks for a run soon (never throws, never waits): after `ASK_DELAY_MS`, asks meanwhile
   * coalesced; a run going on anywhere runs again when it ends. Nothing with `DETAILS_CRON=off`.
   */
  ask(): void;
  /** Resolves when the asked runs of this process have ended (tests, shutdown). */
  settled(): Promise<void>;
}

/** Tuning (tests change it). */
interface DetailsOptions {
  /** The shared window (default: the service's, in `deps.kv`). */
  window?: ExternalWindow;
  /** Films fetched at once (default 4). */
  concurrency?: number;
  lockTtlMs?: number;
}

/** Builds the job's service. */
export function createDetailsService(
  deps: AppDeps,
  options: DetailsOptions = {},
): DetailsService {
  const { store, kv, clock, log, config } = deps;
  const lockTtlMs = options.lockTtlMs ?? DETAILS_LOCK_TTL_MS;
  const shared = options.window ?? createExternalWindow(kv, { clock });
  const inflight = new Set<Promise<unknown>>();
  let waiting = false;

  const job: Job<DetailsParams, DetailsOutcome, RunStart> = {
    ...detailsRecords,
    lease: { key: detailsRecords.lease.key, ttlMs: lockTtlMs },
    execute: (run, lock) => {
      // A catalog of its own over the quarter share; no detail cache, since it only stores. Its
      // statements wait behind every request's on the embedded store, as an import's do.
      const work = backgroundStore(store);
      const window = quarterWindow(shared, { budget: run.budget });
      const catalog = createCatalogService({ ...deps, store: work }, {
        window,
        detailCacheSize: 0,
      });
      return executeDetailsRun({ ...run, lock }, {
        catalog,
        window,
        store: work,
        clock,
        log,
        concurrency: options.concurrency ?? 4,
      });
    },
  };

  function track(work: Promise<unknown>) {
    inflight.add(work);
    work.finally(() => inflight.delete(work));
  }

  async function start({ trigger = "manual" }: { trigger?: RunStart } = {}) {
    const budget = config.detailsBudget;
    const began = clock.now();
    const { runId, done } = await startJobRun(deps, job, { trigger, params: { budget } });
    // Asked for while it ran (here or on another instance): what asked may have stored films
    // after the run planned, so another run follows.
    const again = done.then(async (outcome) => {
      const asked = await kv.get<number>(ASKED_KEY).catch(() => ({ value: null }));
      if (typeof asked.value === "number" && asked.value > began) ask();
      return outcome;
    });
    track(again);
    return { runId, status: "running" as const, done: again };
  }

  async function startAsked() {
    try {
      await (await start({ trigger: "asked" })).done;
    } catch (error) {
      if (error instanceof Problem && error.code === "details_running") return;
      log({ level: "error", msg: "asked details run failed", error: describeError(error) });
    }
  }

  function ask() {
    if (!config.detailsCron) return;
    const at = clock.now();
    kv.set(ASKED_KEY, at, { expireIn: 86_400_000 }).catch((error) =>
      log({ level: "warn", msg: "details ask not shared", error: describeError(error) })
    );
    if (waiting) return;
    waiting = true;
    track(
      clock.sleep(ASK_DELAY_MS).then(() => {
        waiting = false;
        return startAsked();
      }),
    );
  }

  async function settled() {
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
  }

  return { start, runs: () => listRuns(store, 20), ask, settled };
}

/** The restart step (lib/platform/jobs/restart.ts): runs still `running` while nobody holds the lease were cut off. */
export function failInterruptedDetailsRuns(deps: AppDeps): Promise<string[]> {
  return failInterruptedRuns(deps, detailsRecords);
}

/** One cron tick: a `cron` run, awaited; a run already going is logged and skipped. */
export function scheduledDetails(
  service: DetailsService,
  deps: Pick<AppDeps, "log">,
): Promise<DetailsOutcome | null> {
  return cronTick(deps, detailsRecords, () => service.start({ trigger: "cron" }));
}
