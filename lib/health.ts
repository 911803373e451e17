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

/** Throws a 503 `not_ready` Problem unless the service is ready, within `timeoutMs` (2 s). */
export async function checkHealth(
  deps: Pick<AppDeps, "store" | "kv">,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const ms = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  await withDeadline(probe(deps), ms, {
    onLate: () => {
      throw unreachable(new Error(`no answer in ${ms} ms`));
    },
  });
}
