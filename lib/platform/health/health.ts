/** Readiness: the store has every migration this build ships, and KV answers. */
import { withDeadline } from "@/lib/core/async/deadline.ts";
import type { AppDeps } from "../deps.ts";
import { type Migration, readMigrations } from "../store/migrate.ts";
import { Problem } from "@/lib/core/problem.ts";

let shipped: Promise<Migration[]> | undefined;

/** How long the readiness check may take before it says 503 (a frozen store must not hold it). */
const HEALTH_TIMEOUT_MS = 2_000;

function unreachable(cause: unknown): Problem {
  return new Problem(503, "not_ready", "The service is starting or its store is unreachable.", {
    headers: { "Retry-After": "5" },
    cause,
  });
}

async function probe(deps: Pick<AppDeps, "store" | "kv">): Promise<void> {
  const latest = (await (shipped ??= readMigrations())).at(-1)?.version;
  let rows: { ok: boolean }[];
  try {
    rows = await deps.store.query<{ ok: boolean }>(
      "select exists (select 1 from supabase_migrations.schema_migrations where version = $1) as ok",
      [latest],
    );
    await deps.kv.get(["health"]);
  } catch (cause) {
    throw unreachable(cause);
  }
  if (!rows[0]?.ok) throw new Problem(503, "not_ready", "Database migrations are not applied yet.");
}

/**
 * How long a passing readiness check answers later asks whose own check is slow (docs/faults.md):
 * a health probe every 100 ms then never waits long on a store busy with an import, and a store
 * that stops answering still turns health 503 a second (plus the deadline) later.
 */
const FRESH_MS = 1_000;
/** How long an ask waits for its own check before a fresh pass answers it. */
const GRACE_MS = 10;

/** The last pass of one app's readiness check, and the check now running, if any. */
interface Readiness {
  passedAt: number;
  checking?: Promise<void>;
}

const readiness = new WeakMap<object, Readiness>();

/** Whether `work` settles within `ms`: true when it resolved, false when the time ran out. */
async function settlesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throws a 503 `not_ready` Problem unless the service is ready, within `timeoutMs` (2 s). Every
 * ask runs a check (one at a time, later asks join it); on the embedded store, when it has not
 * answered within `graceMs` (10 ms) and a check passed less than a second ago, that pass answers. A failure is
 * never reused, and a check that fails within the grace is the answer. `now` is wall-clock time
 * (injected in tests), like the deadline.
 */
export async function checkHealth(
  deps: Pick<AppDeps, "store" | "kv">,
  options: { timeoutMs?: number; graceMs?: number; now?: () => number } = {},
): Promise<void> {
  const ms = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  let state = readiness.get(deps.store);
  if (!state) readiness.set(deps.store, state = { passedAt: -Infinity });
  const current = state;
  const checking = current.checking ??= withDeadline(probe(deps), ms, {
    onLate: () => {
      throw unreachable(new Error(`no answer in ${ms} ms`));
    },
  }).then(() => {
    current.passedAt = now();
  }).finally(() => {
    current.checking = undefined;
  });
  // PostgreSQL's pool answers health beside the imports' statements: only the embedded store,
  // whose one queue they share, answers from a recent pass.
  const stale = now() - current.passedAt >= FRESH_MS;
  if (stale || deps.store.kind !== "embedded") return await checking;
  checking.catch(() => {}); // a later failure is the answer of the asks after this pass is stale
  await settlesWithin(checking, options.graceMs ?? GRACE_MS);
}
