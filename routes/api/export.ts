/** GET /api/export: the user's history as JSON, or one list as CSV
 * (`?format=csv&list=watched|mylist|diary`, or `list=list&id=` for one of the user's own lists). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import {
  exportCsv,
  exportJson,
  exportQuerySchema,
} from "@/lib/library/history/export/export_file.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { exportListCsv } from "@/lib/library/lists/export.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const query = parsedOr400(exportQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail:
        "format must be json or csv; a CSV needs list=watched, list=mylist, list=diary or list=list&id=<list id>.",
    });
    const { store, clock, config } = c.var.deps;
    const userId = c.var.user.id;
    if (query.format !== "csv") return c.json(await exportJson(store, userId, clock.now()));
    const list = query.list!;
    if (list === "list") {
      const { csv } = await exportListCsv(store, {
        userId,
        listId: query.id!,
        siteUrl: config.siteUrl,
      });
      return c.body(csv, 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="list-${query.id}.csv"`,
      });
    }
    return c.body(await exportCsv(store, userId, list), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${list}.csv"`,
    });
  },
});
