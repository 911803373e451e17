/**
 * GET /api/push/key: the server's VAPID public key, which a browser's PushManager.subscribe takes
 * as its applicationServerKey (docs/alerts.md, "Web Push"). Public: it is the key every push
 * service is shown anyway.
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { vapidKeys } from "@/lib/catalog/notifications/web_push/mod.ts";

export const handler: Handlers = {
  async GET(c) {
    const { publicKey } = await vapidKeys(c.var.deps.config);
    return c.json({ publicKey });
  },
};
