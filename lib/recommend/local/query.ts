/** The queries of GET /api/recommend/local and GET /api/movies/:id/similar (shared with OpenAPI). */
import { z } from "zod";
import { genreName } from "./filters.ts";

function limit(max: number, fallback: number) {
  return z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(max))
    .optional().transform((v) => v ?? fallback)
    .meta({ description: `1-${max}, default ${fallback}.` });
}

// Absent: undefined (for onlyMine, the saved switch decides); true/1 on, false/0 off, any case.
const flag = z.string().trim().toLowerCase().pipe(z.enum(["true", "1", "false", "0"]))
  .optional().transform((v) => v === undefined ? undefined : v === "true" || v === "1")
  .meta({ description: "true or 1 turns it on; false or 0 off (any case)." });

/** GET /api/recommend/local's query; anything else in it is a 400 `invalid_query`. */
export const localQuerySchema = z.object({
  limit: limit(50, 20),
  onlyMine: flag,
  fromMyList: flag,
  genre: z.string().refine((g) => genreName(g) !== null, "an unknown genre").optional()
    .meta({ description: "A TMDB genre name (any case) or id: only films of that genre." }),
});

/** GET /api/movies/:id/similar's query. */
export const similarQuerySchema = z.object({ limit: limit(24, 12) });
