/** Query parameters the catalog routes share. */
import { z } from "zod";
import { MAX_PAGE } from "./service.ts";

/** A list page as a query string value: plain digits, 1 to 500 (TMDB serves no further). */
export const pageParam = z.string().regex(/^\d{1,3}$/).transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE));
