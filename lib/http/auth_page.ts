/** The handlers of /login and /signup: a signed-in visitor goes on to `next`. */
import { failureWords } from "../identity/oidc/failure_seal.ts";
import { safeNext } from "../web/next.ts";
import type { Ctx, Handlers } from "./app_env.ts";

async function show(c: Ctx, posted: boolean) {
  const next = safeNext(c.req.query("next"));
  if (c.get("user")) return c.redirect(next, 303);
  const invite = c.req.query("invite")?.slice(0, 64);
  const access = c.var.deps.config.access;
  // A sign-in with the identity provider that failed comes back with OAuth's parameters; the
  // words are shown only when the service wrote them (lib/identity/oidc/failure_seal.ts).
  const failed = c.req.query("error");
  const error = failed
    ? (await failureWords(c.var.deps.kv, {
      error: failed,
      description: c.req.query("error_description"),
      sig: c.req.query("error_sig"),
    })).slice(0, 300)
    : undefined;
  return c.var.render({
    next,
    posted,
    signup: access.signup,
    invite,
    passwordLogin: access.passwordLogin,
    oidcName: c.var.deps.config.supabase ? undefined : access.oidc?.name,
    error,
    // Signed in with a password but not yet with the code: the form opens at the code step.
    codeStep: c.get("codeOwed") === true ? true : undefined,
  });
}

/** GET renders the form; POST (a form sent without JavaScript) renders it with a note. */
export const authPageHandlers: Handlers = {
  GET: (c) => show(c, false),
  POST: (c) => show(c, true),
};
