/** POST/GET /api/import: start an import of the user's history file; list the user's runs. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readUpload } from "@/lib/http/history_upload.ts";

/** The user first: a 401 comes before any body is read. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const imports = await c.var.services.historyImport.list(c.var.user.id);
    return c.json({ imports });
  },
  async POST(c) {
    // The body is read once the upload is admitted (503 before it, when too many are in).
    const started = await c.var.services.historyImport.start(
      c.var.user.id,
      () => readUpload(c.req.raw),
    );
    return c.json(started, 202);
  },
});
