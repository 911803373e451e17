/** POST/GET /api/admin/invites: make a signup invite, list them (lib/identity/access/service.ts). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readJson } from "@/lib/http/read_body.ts";

export const handler: Handlers = {
  async GET(c) {
    return c.json({ invites: await c.var.services.invites.list() });
  },
  async POST(c) {
    const body = await readJson(c.req.raw, { allowEmpty: true });
    return c.json(await c.var.services.invites.create(body), 201);
  },
};
