/** GET/PATCH /api/watched/:catalogId: one watched entry's rating, date and note. */
import { catalogIdParam } from "@/lib/catalog/params.ts";
import type { Ctx } from "@/lib/http/app_env.ts";
import { readEntryPatch } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { invalidCatalogId } from "@/lib/library/entries/write_payload.ts";

/** The user first: a 401 comes before the id or the body is looked at. */
export const middleware = [requireUser()];

function catalogId(c: Ctx): number {
  const id = catalogIdParam.safeParse(c.req.param("catalogId"));
  if (!id.success) throw invalidCatalogId();
  return id.data;
}

export const handler = signedIn({
  async GET(c) {
    const entry = await c.var.services.entries.entry(c.var.user.id, catalogId(c));
    return c.json({ success: true, entry });
  },
  async PATCH(c) {
    const id = catalogId(c);
    const fields = await readEntryPatch(c.req.raw, c.var.deps.clock.now());
    const entry = await c.var.services.entries.updateEntry(c.var.user.id, {
      catalogId: id,
      fields,
    });
    return c.json({ success: true, entry });
  },
});
