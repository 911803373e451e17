/** What a catalog id is, once for every body, answer and path (docs/api.md, The lists). */
import { z } from "zod";

/** The largest catalog id: ids are TMDB's and fit a Postgres `integer`. */
const MAX_CATALOG_ID = 2 ** 31 - 1;

/** A catalog id in a JSON body or answer: an integer from 1 to 2147483647. */
export const catalogIdSchema = z.number().int().min(1).max(MAX_CATALOG_ID);
