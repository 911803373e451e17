/** POST /api/me/seerr/requests: the Request button: sends a film to the user's Seerr. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { SeerrRequestBody } from "@/lib/connections/seerr/mod.ts";

/** A session or a `write` personal token (a script may request too). */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const { catalogId } = parsedOr400(
      SeerrRequestBody,
      await readJson(c.req.raw, { requireJsonType: true }),
      { code: "invalid_body", detail: 'Expected {"catalogId": a positive integer}.' },
    );
    return c.json(await c.var.services.seerr.request(c.var.user.id, catalogId), 201);
  },
});
