/** GET/POST /api/tokens: the signed-in user's personal access tokens; a new one shown once. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseCreateToken } from "@/lib/identity/personal_tokens/payload.ts";

/** A signed-in session only (a token cannot make or list tokens), with its second factor when it has one. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async GET(c) {
    return c.json({ tokens: await c.var.services.personalTokens.list(c.var.user.id) });
  },
  async POST(c) {
    const input = parseCreateToken(await readJson(c.req.raw, { requireJsonType: true }));
    const token = await c.var.services.personalTokens.create(c.var.user.id, input);
    // The value is in this answer only: never cache it anywhere.
    return c.json(token, 201, { "cache-control": "no-store" });
  },
});
