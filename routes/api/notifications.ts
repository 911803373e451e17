/** GET /api/notifications?unread=true: my alerts, newest first (at most 100), and the unread count. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { listNotifications } from "@/lib/catalog/notifications/mod.ts";
import { Problem } from "@/lib/core/problem.ts";

export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const unread = c.req.queries("unread") ?? [];
    if (unread.length > 1 || (unread.length === 1 && !["true", "false"].includes(unread[0]))) {
      throw new Problem(400, "invalid_query", "unread must be true or false, once.");
    }
    const { store, config } = c.var.deps;
    return c.json(
      await listNotifications(store, c.var.user.id, {
        unreadOnly: unread[0] === "true",
        imageBaseUrl: config.tmdb.imageBaseUrl,
      }),
    );
  },
});
