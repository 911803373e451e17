/** The query of GET /api/import/:id/unmatched: a page after `cursor`, or `format=csv` for all. */
import { z } from "zod";

/** `cursor` is the previous page's `nextCursor`; `format=csv` takes no cursor. */
export const unmatchedQuerySchema = z.strictObject({
  cursor: z.string().regex(/^[1-9]\d{0,8}$/).optional().meta({
    description: "The previous page's nextCursor.",
  }),
  format: z.enum(["json", "csv"]).optional(),
}).refine((q) => !(q.format === "csv" && q.cursor !== undefined));
