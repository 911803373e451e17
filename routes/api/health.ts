/** GET /api/health: 200 once migrations are applied and KV answers; 503 before. */
import type { Handlers } from "../../lib/http/app_env.ts";
import { checkHealth } from "../../lib/health.ts";

export const handler: Handlers = {
  async GET(c) {
    await checkHealth(c.var.deps);
    return c.json({ status: "ok" });
  },
};
