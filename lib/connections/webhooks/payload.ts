/** The body of PUT /api/me/connections (the OpenAPI document is built from this schema). */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** `{"plexUsername"?,"removeFromMyList"?}`; a blank or null Plex username turns the filter off. */
export const ConnectionSettingsBody = z.strictObject({
  plexUsername: z.string().trim().max(100).nullable().optional()
    .describe("Only this Plex account's events count (its `Account.title`); null or blank: any."),
  removeFromMyList: z.boolean().optional()
    .describe("Whether a movie logged by a webhook leaves My List (default true)."),
});

/** The settings a PUT changes. */
export type ConnectionSettingsPatch = z.infer<typeof ConnectionSettingsBody>;

/** The parsed body, or a 400 `invalid_body` naming the first field at fault. */
export function parseConnectionSettings(value: unknown): ConnectionSettingsPatch {
  const parsed = ConnectionSettingsBody.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || "body";
  throw new Problem(400, "invalid_body", `${field}: ${issue.message}`);
}
