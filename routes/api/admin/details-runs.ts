/** GET/POST /api/admin/details-runs: list the details job's recent runs, start one. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { Problem } from "@/lib/core/problem.ts";

export const handler: Handlers = {
  async GET(c) {
    return c.json({ runs: await c.var.services.details.runs() });
  },
  async POST(c) {
    // Nothing to choose: an empty body (or an empty object) starts a run with the budget.
    const body = await readJson(c.req.raw, { allowEmpty: true });
    if (body !== undefined && JSON.stringify(body) !== "{}") {
      throw new Problem(400, "invalid_body", "The body must be empty: a run takes no options.");
    }
    const { runId, status } = await c.var.services.details.start();
    return c.json({ success: true, runId, status }, 202);
  },
};
