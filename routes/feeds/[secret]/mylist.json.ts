/**
 * GET /feeds/:secret/mylist.json: My List as Radarr's "Custom Lists" import reads it
 * (docs/trakt.md, "Other apps"), `[{"id":<TMDB id>,"title","year"}]` in My List's order,
 * authenticated by the secret alone (rotated on /account/connections).
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";

export const handler: Handlers = {
  async GET(c) {
    const items = await c.var.services.feeds.read(c.req.param("secret") ?? "", {
      address: clientAddress(c),
    });
    // The secret is the credential: no shared cache keeps the answer.
    return c.json(items, 200, { "cache-control": "private, no-store" });
  },
};
