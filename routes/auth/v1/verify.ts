/**
 * /auth/v1/verify with type=recovery: POST (supabase-js `verifyOtp({token_hash, type})`)
 * answers the session; GET (a mailed GoTrue link) redirects with it in the URL fragment.
 */
import { GoTrueError, gotrueHandler, gotrueJson } from "../../../lib/auth/gotrue.ts";
import { readJsonBody } from "../../../lib/auth/json_body.ts";
import { recoveryRedirect } from "../../../lib/auth/password_reset.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  POST: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) throw new GoTrueError(400, "bad_json", body.reason);
    const session = await builtin.verifyOtp(body.value);
    c.set("user", { id: String(session.user.id), email: String(session.user.email) });
    return gotrueJson(c.req.raw, session);
  }),
  GET: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const query = c.req.query();
    let outcome;
    try {
      outcome = await builtin.verifyOtp({ type: query.type, token: query.token });
    } catch (error) {
      // A bad link still lands on the site, with GoTrue's error in the fragment.
      if (!(error instanceof GoTrueError) || error.status !== 403) throw error;
      outcome = error;
    }
    const location = recoveryRedirect(c.var.deps.config.siteUrl, query.redirect_to, outcome);
    return new Response(null, {
      status: 303,
      headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    });
  }),
};
