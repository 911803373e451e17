/**
 * `/share`: the manifest's share target. A movie link or text shared from another app opens
 * that movie or a search for it (lib/web/pwa/movie_link.ts).
 */
import { z } from "zod";
import type { Handlers } from "../lib/http/app_env.ts";
import { shareDestination } from "../lib/web/pwa/movie_link.ts";

// A share sheet sends what it has; anything unreadable is just left out.
const Shared = z.object({
  title: z.string().max(2000).optional().catch(undefined),
  text: z.string().max(2000).optional().catch(undefined),
  url: z.string().max(2000).optional().catch(undefined),
});

export const handler: Handlers = {
  GET(c) {
    const shared = Shared.parse(c.req.query());
    return c.redirect(shareDestination(shared), 303);
  },
};
