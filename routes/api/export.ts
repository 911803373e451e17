/** GET /api/export: the user's history as JSON, or one list as CSV
 * (`?format=csv&list=watched|mylist|diary`, or `list=list&id=` for one of the user's own lists). */
import { assertSignedIn, requireUser } from "../../lib/http/middleware/require_user.ts";
import { exportCsv, exportJson, exportQuerySchema } from "../../lib/history/export/export_file.ts";
import type { Handlers } from "../../lib/http/app_env.ts";
import { Problem } from "../../lib/problem.ts";
import { exportListCsv } from "../../lib/user_lists/export.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const parsed = exportQuerySchema.safeParse(c.req.query());
    if (!parsed.success) {
      throw new Problem(
        400,
        "invalid_query",
        "format must be json or csv; a CSV needs list=watched, list=mylist, list=diary or list=list&id=<list id>.",
      );
    }
    const { store, clock } = c.var.deps;
    const userId = assertSignedIn(c).id;
    if (parsed.data.format !== "csv") return c.json(await exportJson(store, userId, clock.now()));
    const list = parsed.data.list!;
    if (list === "list") {
      const { csv } = await exportListCsv(store, { userId, listId: parsed.data.id! });
      return c.body(csv, 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="list-${parsed.data.id}.csv"`,
      });
    }
    return c.body(await exportCsv(store, userId, list), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${list}.csv"`,
    });
  },
};
