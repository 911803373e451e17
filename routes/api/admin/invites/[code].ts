/** DELETE /api/admin/invites/:code: revokes an invite; 204, or 404 `invite_not_found`. */
import type { Handlers } from "@/lib/http/app_env.ts";

export const handler: Handlers = {
  async DELETE(c) {
    await c.var.services.invites.remove(c.req.param("code")!);
    return c.body(null, 204);
  },
};
