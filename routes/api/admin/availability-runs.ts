/** GET/POST /api/admin/availability-runs: list the availability job's recent runs, start one. */
import { availabilityStartSchema } from "@/lib/catalog/availability/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";

export const handler: Handlers = {
  async GET(c) {
    return c.json({ runs: await c.var.services.availability.runs() });
  },
  async POST(c) {
    // An empty body (or an empty object) starts a run with the budget; `force` also refreshes
    // the movies fetched in the last 20 hours (docs/availability.md, "The availability job").
    const body = await readJson(c.req.raw, { allowEmpty: true });
    const { force } = parsedOr400(availabilityStartSchema, body ?? {}, {
      code: "invalid_body",
      detail: 'The body must be empty, {} or {"force": true}.',
    });
    const { runId, status } = await c.var.services.availability.start({ force });
    return c.json({ success: true, runId, status }, 202);
  },
};
