/** POST/GET /api/admin/catalog-import: start a catalog import, list the recent runs. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readImportBody } from "@/lib/http/payloads.ts";

export const handler: Handlers = {
  async GET(c) {
    const runs = await c.var.services.catalogImport.runs();
    return c.json({ runs });
  },
  async POST(c) {
    const { pages } = await readImportBody(c.req.raw);
    const { importId, status } = await c.var.services.catalogImport.start({ pages });
    return c.json({ success: true, importId, status }, 202);
  },
};
