/**
 * GET /api/health: 200 once migrations are applied and KV answers, 503 before (cheap, for load
 * balancers). `?deep=1` with x-admin-token: the operator's report (lib/platform/health/report.ts).
 */
import { checkHealth } from "@/lib/platform/health/health.ts";
import { healthQuerySchema, healthReport, unhealthy } from "@/lib/platform/health/report.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { checkAdminToken } from "@/lib/http/middleware/admin_token.ts";

export const handler: Handlers = {
  async GET(c) {
    const query = parsedOr400(healthQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "deep takes 1 or true.",
    });
    const { deps, services } = c.var;
    if (!query.deep) {
      await checkHealth(deps);
      return c.json({ status: "ok" });
    }
    await checkAdminToken(c);
    const report = await healthReport({
      store: deps.store,
      kv: deps.kv,
      // Read afresh: another instance's places show at once in the operator's report.
      windowHeaders: () => services.catalog.rateLimitHeaders({ fresh: true }),
      deploymentId: deps.config.deploymentId,
    });
    if (report.status !== "ok") throw unhealthy(report);
    return c.json(report, 200, { "cache-control": "no-store" });
  },
};
