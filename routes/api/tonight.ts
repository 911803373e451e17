/** POST /api/tonight: films for tonight from words or filters (docs/recommend.md, "Tonight"). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { tonightBodySchema } from "@/lib/recommend/tonight/mod.ts";

/** The user first: a 401 comes before the body is looked at. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const raw = await readJson(c.req.raw, { allowEmpty: true });
    const body = parsedOr400(tonightBodySchema, raw ?? {}, {
      code: "invalid_query",
      detail: 'Send {"text"?, "filters"?}: text of at most 300 characters; filters with the ' +
        "interpretation's keys and types (runtimeMax 1-1440, yearFrom and yearTo 1800-2200 or " +
        "null, languages two-letter codes, moods among the five, at most 3 similarTo).",
    });
    return c.json(await c.var.services.tonight.tonight(c.var.user.id, body));
  },
});
