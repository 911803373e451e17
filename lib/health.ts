/** Readiness: the store has every migration this build ships, and KV answers. */
import type { AppDeps } from "./deps.ts";
import { type Migration, readMigrations } from "./store/migrate.ts";
import { Problem } from "./problem.ts";

let shipped: Promise<Migration[]> | undefined;

/** Throws a 503 `not_ready` Problem unless the service is ready to serve. */
export async function checkHealth(deps: Pick<AppDeps, "store" | "kv">): Promise<void> {
  const latest = (await (shipped ??= readMigrations())).at(-1)?.version;
  try {
    const rows = await deps.store.query<{ ok: boolean }>(
      "select exists (select 1 from supabase_migrations.schema_migrations where version = $1) as ok",
      [latest],
    );
    await deps.kv.get(["health"]);
    if (rows[0]?.ok) return;
  } catch (cause) {
    throw new Problem(503, "not_ready", "The service is starting or its store is unreachable.", {
      cause,
    });
  }
  throw new Problem(503, "not_ready", "Database migrations are not applied yet.");
}
