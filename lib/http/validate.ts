/**
 * The one way a route handler parses its query, path parameter or body with a zod schema: the
 * parsed value, or a 400 problem in the route's own words (its stable code and its detail).
 */
import type { z } from "zod";
import { Problem } from "../core/problem.ts";

/** What a route answers when the value does not parse. */
interface Refusal {
  code: string;
  detail: string;
}

/** `value` parsed by `schema`, or a thrown 400 problem with `refusal`'s code and detail. */
export function parsedOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  refusal: Refusal,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Problem(400, refusal.code, refusal.detail);
  return parsed.data;
}
