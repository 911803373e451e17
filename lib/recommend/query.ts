/** The query flags of GET /api/recommend, shared with the OpenAPI document. */
import { z } from "zod";

// "true" or "1" turn a flag on; "false", "0" or nothing leave it off; anything else is a 400.
const flag = z.string().trim().toLowerCase().pipe(z.enum(["true", "1", "false", "0", ""]))
  .optional().transform((v) => v === "true" || v === "1")
  // The enum sits behind trim and lower-casing, which JSON Schema cannot follow.
  .meta({ description: "true or 1 turns it on; false, 0 or empty leave it off (any case)." });

/** `refresh` regenerates; `getNew` regenerates without the previous set (it wins over refresh). */
export const recommendQuerySchema = z.object({ refresh: flag, getNew: flag });
