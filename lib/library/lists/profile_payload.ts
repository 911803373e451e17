/** PUT /api/me/profile's body: the handle people find the user by, a name, two switches. */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** A handle: 3-30 of a-z, 0-9 and _, unique. */
export const handleSchema = z.string().regex(/^[a-z0-9_]{3,30}$/)
  .meta({ description: "3-30 characters of a-z, 0-9 and _; unique." });

/** PUT /api/me/profile. */
export const profileBodySchema = z.strictObject({
  handle: handleSchema,
  displayName: z.string().refine((s) => [...s.trim()].length >= 1 && [...s.trim()].length <= 40)
    .meta({ minLength: 1, maxLength: 40, description: "1-40 characters, trimmed." }),
  public: z.boolean().optional().meta({ description: "false unless given: nothing is public." }),
  showStats: z.boolean().optional().meta({ description: "false unless given." }),
});

/** The profile as stored and shown to its owner. */
export interface ProfileFields {
  handle: string;
  displayName: string;
  public: boolean;
  showStats: boolean;
}

/** The profile a body sets; 400 `invalid_body` saying the rules otherwise. */
export function parseProfile(body: unknown): ProfileFields {
  const r = profileBodySchema.safeParse(body);
  if (!r.success) {
    throw new Problem(
      400,
      "invalid_body",
      "A profile takes handle (3-30 of a-z, 0-9, _), displayName (1-40 characters), public " +
        "and showStats (true or false); nothing else.",
    );
  }
  return {
    handle: r.data.handle,
    displayName: r.data.displayName.trim(),
    public: r.data.public ?? false,
    showStats: r.data.showStats ?? false,
  };
}
