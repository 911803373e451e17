/** GET /api/shared/:slug: a shared list, read by anyone with its link (no account). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { publicReadLimit } from "@/lib/http/middleware/public_read_limit.ts";
import { parsePage } from "@/lib/library/lists/mod.ts";

/** Limited per client address before anything is read. */
export const middleware = [publicReadLimit()];

export const handler: Handlers = {
  async GET(c) {
    const page = parsePage(searchParams(c.req.raw));
    const { list, movies, nextCursor } = await c.var.services.lists.shared(
      c.req.param("slug") ?? "",
      page,
    );
    // As its page (/s/:slug): any cache asks again, so a revoked or replaced link dies at once.
    return c.json({ list, movies, nextCursor }, 200, { "cache-control": "no-cache" });
  },
};
