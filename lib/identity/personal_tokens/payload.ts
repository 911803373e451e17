/** The body of POST /api/tokens (the OpenAPI document is built from this schema). */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** `{"name" (1-60 after trimming),"scope":"read"|"write","expiresInDays"? (1-365)}`. */
export const CreateTokenBody = z.strictObject({
  name: z.string().trim().min(1).max(60).describe("What the token is for, 1 to 60 characters."),
  scope: z.enum(["read", "write"]).describe("`read`: GET only; `write`: every method."),
  expiresInDays: z.number().int().min(1).max(365).optional()
    .describe("Days until the token stops working; without it, it works until revoked."),
});

/** The parsed body, or a 400 `invalid_body` naming the first field at fault. */
export function parseCreateToken(value: unknown): z.infer<typeof CreateTokenBody> {
  const parsed = CreateTokenBody.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || "body";
  throw new Problem(400, "invalid_body", `${field}: ${issue.message}`);
}
