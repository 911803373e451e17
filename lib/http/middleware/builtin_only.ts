/**
 * The /auth/v1 subtree is the built-in provider's: with SUPABASE_URL set, Supabase serves
 * these endpoints itself and this server answers 404 for all of them.
 */
import type { BuiltinProvider } from "@/lib/identity/auth/builtin_provider.ts";
import { GoTrueError } from "@/lib/identity/auth/gotrue_error.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Ctx, Middleware } from "../app_env.ts";
import { bearerToken } from "../bearer.ts";

const notServed = () => new Problem(404, "not_found", "No such resource.");

/** 404 for every request of the subtree unless the built-in provider is configured. */
export function builtinOnly(): Middleware {
  return async function builtinOnly(c, next) {
    if (!c.var.services.auth.builtin) throw notServed();
    await next();
  };
}

/** The built-in provider of a route behind `builtinOnly` (typed, no non-null assertion). */
export function builtinProvider(c: Ctx): BuiltinProvider {
  const builtin = c.var.services.auth.builtin;
  if (!builtin) throw notServed();
  return builtin;
}

/** The Bearer token of a GoTrue route; without one, GoTrue's 401 `no_authorization`. */
export function gotrueBearer(c: Ctx): string {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) {
    throw new GoTrueError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  }
  return token;
}
