/** The document's part for Web Push (docs/alerts.md, "Web Push"): the server's VAPID key. */
import { z } from "zod";
import { internal } from "../responses.ts";

/** GET /api/push/key. */
const pushKeySchema = z.strictObject({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/).meta({
    description: "The VAPID public key: base64url (no padding) of the 65-byte uncompressed " +
      "P-256 point, PushManager.subscribe's applicationServerKey.",
  }),
});

/** The component schemas this file adds. */
export const pushComponents = { PushKey: pushKeySchema } as const;

/** The paths this file adds. */
export function pushPaths(): Record<string, unknown> {
  return {
    "/api/push/key": {
      get: {
        summary: "The server's VAPID public key, for subscribing a browser to Web Push alerts.",
        tags: ["streaming"],
        security: [],
        responses: {
          200: {
            description: "The key; the same for every instance sharing VAPID_PRIVATE_KEY.",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/PushKey" } },
            },
          },
          500: internal,
        },
      },
    },
  };
}
