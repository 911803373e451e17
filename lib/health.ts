/** Readiness: the store has every migration this build ships, and KV answers. */
import { withDeadline } from "./async/deadline.ts";
import type { AppDeps } from "./deps.ts";
import { type Migration, readMigrations } from "./store/migrate.ts";
import { Problem } from "./problem.ts";

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
 * How long a passing readiness check answers later asks while a fresh one runs beside them
 * (docs/faults.md): a health probe every 100 ms then never waits on a store busy with an import,
 * and a store that stops answering still turns health 503 a second later.
 */
const FRESH_MS = 1_000;

/** The last pass of one app's readiness check, and the check now running, if any. */
interface Readiness {
  passedAt: number;
  checking?: Promise<void>;
}

const readiness = new WeakMap<object, Readiness>();

/**
 * Throws a 503 `not_ready` Problem unless the service is ready, within `timeoutMs` (2 s). A
 * check that passed less than a second ago answers at once, with a fresh check started beside
 * it; a failure is never reused. `now` is wall-clock time (injected in tests), like the deadline.
 */
export async function checkHealth(
  deps: Pick<AppDeps, "store" | "kv">,
  options: { timeoutMs?: number; now?: () => number } = {},
): Promise<void> {
  const ms = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  let state = readiness.get(deps.store);
  if (!state) readiness.set(deps.store, state = { passedAt: -Infinity });
  const current = state;
  const check = () =>
    current.checking ??= withDeadline(probe(deps), ms, {
      onLate: () => {
        throw unreachable(new Error(`no answer in ${ms} ms`));
      },
    }).then(() => {
      current.passedAt = now();
    }).finally(() => {
      current.checking = undefined;
    });
  if (now() - current.passedAt < FRESH_MS) {
    check().catch(() => {}); // its failure is the next ask's answer once this pass is stale
    return;
  }
  await check();
}
