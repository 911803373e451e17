/**
 * The header's bell: a signed-in page request reads the user's unread notification count (one
 * indexed count) before the page renders. API, auth and static requests never pay for it.
 */
import { countUnread } from "@/lib/catalog/notifications/mod.ts";
import type { Middleware } from "../app_env.ts";

/** Sets `c.var.unread` on signed-in page GETs; a failing count leaves the bell without one. */
export function unreadCount(): Middleware {
  return async function unreadCount(c, next) {
    const user = c.get("user");
    if (user && c.req.method === "GET" && !/^\/(api|auth|static)(\/|$)/.test(c.req.path)) {
      try {
        c.set("unread", await countUnread(c.var.deps.store, user.id));
      } catch {
        // The page matters more than its bell.
      }
    }
    await next();
  };
}
