/** The body of `POST /api/admin/catalog-import`: optional `{"pages": 1-25}`, default 5. */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** Popular pages a run imports when the body does not say. */
export const DEFAULT_PAGES = 5;

/** Most popular pages one run may import (the table's check constraint agrees). */
const MAX_PAGES = 25;

/** The JSON body; strict, since an unknown key ("page") is more likely a typo than an extra. */
export const importBodySchema = z.strictObject({
  pages: z.number().int().min(1).max(MAX_PAGES).optional(),
});

function invalidBody(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

/** The pages a parsed body asks for; `undefined` is an empty body. */
export function parseImportBody(body: unknown): { pages: number } {
  if (body === undefined) return { pages: DEFAULT_PAGES };
  const parsed = importBodySchema.safeParse(body);
  if (!parsed.success) {
    throw invalidBody(
      `The body must be empty or {"pages": n} with n an integer from 1 to ${MAX_PAGES}.`,
    );
  }
  return { pages: parsed.data.pages ?? DEFAULT_PAGES };
}
