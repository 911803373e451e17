/**
 * The cookie that binds a link of the identity provider (docs/oidc.md, "Linking from /account")
 * to the browser that started it: set with the `{"url"}` answer of
 * `/auth/v1/user/identities/authorize`, sent back only to `/auth/v1/callback` (a top-level GET
 * from the provider, which SameSite=Lax allows), and cleared there.
 */
import { getCookie } from "hono/cookie";
import type { Ctx } from "./app_env.ts";

const NAME = "movies-oidc-link";
/** As long as a flow lives in KV (lib/identity/oidc/flow.ts). */
const MAX_AGE_S = 600;

function attributes(c: Ctx, maxAge: number): string {
  const secure = c.var.deps.config.siteUrl.startsWith("https:") ? "; Secure" : "";
  return `Path=/auth/v1/callback; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The Set-Cookie value that binds a link flow to this browser. */
export function linkCookie(c: Ctx, binding: string): string {
  return `${NAME}=${binding}; ${attributes(c, MAX_AGE_S)}`;
}

/** The Set-Cookie value that clears it. */
export function clearedLinkCookie(c: Ctx): string {
  return `${NAME}=; ${attributes(c, 0)}`;
}

/** The binding the browser sent back, if any. */
export function linkBinding(c: Ctx): string | undefined {
  return getCookie(c, NAME) || undefined;
}
