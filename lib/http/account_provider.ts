/**
 * What /account shows of the instance's identity provider (docs/oidc.md, "Linking"): whether
 * the signed-in user's account is linked to it, and how a link just made from there ended.
 */
import { failureWords } from "../identity/oidc/failure_seal.ts";
import type { Ctx } from "./app_env.ts";

/** The "Sign in with …" section of /account. */
export interface ProviderLink {
  /** OIDC_NAME. */
  name: string;
  linked: boolean;
  /** The email the provider last gave for the linked login. */
  linkedEmail: string | null;
  /** Back from a link that worked (`?linked=oidc`). */
  justLinked: boolean;
  /** Why a link failed, in the service's own words (a crafted link gets its code's words). */
  failure?: string;
}

/** The section's data for `userId`; undefined without a provider (or with Supabase Auth). */
export async function providerLink(c: Ctx, userId: string): Promise<ProviderLink | undefined> {
  const oidc = c.var.deps.config.access.oidc;
  const builtin = c.var.services.auth.builtin;
  if (!oidc || !builtin) return undefined;
  const identity = await builtin.oidc.linked(userId);
  const error = c.req.query("error");
  const failure = error
    ? (await failureWords(c.var.deps.kv, {
      error,
      description: c.req.query("error_description"),
      sig: c.req.query("error_sig"),
    })).slice(0, 300)
    : undefined;
  return {
    name: oidc.name,
    linked: identity !== null,
    linkedEmail: identity?.email ?? null,
    justLinked: identity !== null && c.req.query("linked") === "oidc",
    failure,
  };
}
