/** The handlers of /login and /signup: a signed-in visitor goes on to `next`. */
import { safeNext } from "../web/next.ts";
import type { Ctx, Handlers } from "./app_env.ts";

function show(c: Ctx, posted: boolean) {
  const next = safeNext(c.req.query("next"));
  if (c.get("user")) return c.redirect(next, 303);
  const invite = c.req.query("invite")?.slice(0, 64);
  return c.var.render({ next, posted, signup: c.var.deps.config.access.signup, invite });
}

/** GET renders the form; POST (a form sent without JavaScript) renders it with a note. */
export const authPageHandlers: Handlers = {
  GET: (c) => show(c, false),
  POST: (c) => show(c, true),
};
