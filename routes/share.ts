/**
 * `/share`: the manifest's share target. A movie link or text shared from another app opens
 * that movie or a search for it (lib/web/pwa/movie_link.ts); a Letterboxd film opens the movie
 * when a title search has one clear match (lib/catalog/shared_film.ts).
 */
import { z } from "zod";
import { findSharedFilm } from "../lib/catalog/shared_film.ts";
import type { Handlers } from "../lib/http/app_env.ts";
import { shareTarget } from "../lib/web/pwa/movie_link.ts";

// A share sheet sends what it has; anything unreadable is just left out.
const Shared = z.object({
  title: z.string().max(2000).optional().catch(undefined),
  text: z.string().max(2000).optional().catch(undefined),
  url: z.string().max(2000).optional().catch(undefined),
});

export const handler: Handlers = {
  async GET(c) {
    const target = shareTarget(Shared.parse(c.req.query()));
    const id = target.films ? await findSharedFilm(c.var.services.catalog, target.films) : null;
    return c.redirect(id === null ? target.path : `/movies/${id}`, 303);
  },
};
