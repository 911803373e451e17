/** GET /api/import/:id/unmatched?cursor=: a run's unmatched films a page at a time, or as CSV. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { unmatchedQuerySchema } from "@/lib/library/history/import/unmatched_query.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";

/** The user first; another user's run is a 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const query = parsedOr400(unmatchedQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "cursor must be the nextCursor of a page; format=csv takes no cursor.",
    });
    const userId = c.var.user.id;
    const id = c.req.param("id")!;
    const imports = c.var.services.historyImport;
    if (query.format !== "csv") {
      return c.json(await imports.unmatched(userId, id, query.cursor));
    }
    return c.body(await imports.unmatchedCsv(userId, id), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="import-${id}-unmatched.csv"`,
    });
  },
});
