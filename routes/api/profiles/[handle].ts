/** GET /api/profiles/:handle: a public profile, for anyone (no account). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { publicReadLimit } from "@/lib/http/middleware/public_read_limit.ts";

/** Limited per client address before anything is read. */
export const middleware = [publicReadLimit()];

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.profiles.publicProfile(c.req.param("handle") ?? ""));
  },
};
