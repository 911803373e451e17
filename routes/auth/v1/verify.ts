/**
 * /auth/v1/verify with type=recovery or type=signup: POST (supabase-js
 * `verifyOtp({token_hash, type})`) answers the session; GET (a mailed GoTrue link) redirects:
 * a recovery with its session in the URL fragment, a signup's confirmation with a notice only.
 */
import { confirmationRedirect } from "@/lib/identity/auth/signup_confirmation.ts";
import { GoTrueError } from "@/lib/identity/auth/gotrue_error.ts";
import { recoveryRedirect } from "@/lib/identity/auth/password_reset.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

export const handler: Handlers = {
  async POST(c) {
    const provider = builtinProvider(c);
    const session = await provider.verifyOtp(await readGoTrueBody(c.req.raw));
    c.set("user", { id: String(session.user.id), email: String(session.user.email) });
    return gotrueJson(c.req.raw, session);
  },
  async GET(c) {
    const provider = builtinProvider(c);
    const query = c.req.query();
    const siteUrl = c.var.deps.config.siteUrl;
    if (query.type === "signup") {
      let confirmed = false;
      try {
        confirmed = await provider.confirmSignup(query);
      } catch (error) {
        // A link without its token still lands on the site, with the same notice.
        if (!(error instanceof GoTrueError) || error.status !== 400) throw error;
      }
      const location = confirmationRedirect(siteUrl, query.redirect_to, confirmed);
      return new Response(null, { status: 303, headers: { location, ...NO_STORE } });
    }
    let outcome;
    try {
      outcome = await provider.verifyOtp({ type: query.type, token: query.token });
    } catch (error) {
      // A bad link still lands on the site, with GoTrue's error in the fragment.
      if (!(error instanceof GoTrueError) || error.status !== 403) throw error;
      outcome = error;
    }
    const location = recoveryRedirect(siteUrl, query.redirect_to, outcome);
    return new Response(null, { status: 303, headers: { location, ...NO_STORE } });
  },
};
