/**
 * The operator's view of an instance (`GET /api/health?deep=1`, docs/faults.md): the
 * store and the migration version it has, KV, the shared external window's use, and the
 * build. Each check has its own deadline, so a frozen dependency shows as not ok instead of
 * holding the answer.
 */
import type { Kv } from "../kv/kv.ts";
import { z } from "zod";
import { withDeadline } from "@/lib/core/async/deadline.ts";
import { buildVersion } from "@/lib/core/build_info.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "../store/mod.ts";

/** The query of GET /api/health: `deep=1` asks for the report (with the admin token). */
export const healthQuerySchema = z.object({
  deep: z.enum(["1", "true", "0", "false"]).optional()
    .transform((v) => v === "1" || v === "true")
    .meta({ description: "1 (or true) asks for the deep report; needs x-admin-token." }),
});

/** What the deep health check reports. */
interface HealthReport {
  status: "ok" | "unavailable";
  store: { ok: boolean; migration: string | null };
  kv: { ok: boolean };
  window: { used: number; resetAt: string } | null;
  version: string;
}

/** What the report is built from. */
interface HealthSources {
  store: Sql;
  kv: Kv;
  /** The external window's X-RateLimit-* headers, as the catalog reports them. */
  windowHeaders: () => Promise<Record<string, string>>;
  deploymentId?: string;
}

/** How long one check may take before it counts as failed. */
const CHECK_DEADLINE_MS = 2_000;

// A wall-clock deadline on purpose (lib/core/async/deadline.ts): it bounds waiting on a frozen
// dependency, which an injected test clock (whose sleep returns at once) would cut short.
function within<T>(work: Promise<T>): Promise<T> {
  return withDeadline(work, CHECK_DEADLINE_MS, {
    onLate: () => {
      throw new Error(`no answer within ${CHECK_DEADLINE_MS} ms`);
    },
  });
}

async function storeCheck(sources: HealthSources): Promise<HealthReport["store"]> {
  try {
    const rows = await within(
      sources.store.query<{ version: string | null }>(
        "select max(version) as version from supabase_migrations.schema_migrations",
      ),
    );
    return { ok: true, migration: rows[0]?.version ?? null };
  } catch {
    return { ok: false, migration: null };
  }
}

async function kvCheck(sources: HealthSources): Promise<HealthReport["kv"]> {
  try {
    await within(sources.kv.get(["health"]));
    return { ok: true };
  } catch {
    return { ok: false };
  }
}

async function windowState(sources: HealthSources): Promise<HealthReport["window"]> {
  try {
    const headers = await within(sources.windowHeaders());
    const used = Number(headers["X-RateLimit-Limit"]) - Number(headers["X-RateLimit-Remaining"]);
    const resetAt = new Date(Number(headers["X-RateLimit-Reset"]) * 1000).toISOString();
    return { used, resetAt };
  } catch {
    return null;
  }
}

/** Runs every check at once and reports them; `status` is ok only when store and KV are. */
export async function healthReport(sources: HealthSources): Promise<HealthReport> {
  const [store, kv, window, version] = await Promise.all([
    storeCheck(sources),
    kvCheck(sources),
    windowState(sources),
    buildVersion({ deploymentId: sources.deploymentId }),
  ]);
  return { status: store.ok && kv.ok ? "ok" : "unavailable", store, kv, window, version };
}

/**
 * The 503 of a failing report: a problem like every other error (docs/api.md), naming
 * the failing checks, with the whole report as its `report` member.
 */
export function unhealthy(report: HealthReport): Problem {
  const failing = (["store", "kv"] as const).filter((check) => !report[check].ok);
  return new Problem(503, "unhealthy", `Failing: ${failing.join(", ")}.`, {
    headers: { "Cache-Control": "no-store", "Retry-After": "5" },
    extensions: { report },
  });
}
