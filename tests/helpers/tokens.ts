/**
 * Access tokens for tests, signed with the configured key as the built-in provider signs
 * them. The app itself never mints a token outside a sign-in; in Supabase mode this is how a
 * test gets a built-in token to show it is refused.
 */
import { signAccessToken } from "@/lib/identity/auth/access_token.ts";
import type { AuthUser } from "@/lib/identity/auth/mod.ts";
import { loadSigningKey, type SigningKey } from "@/lib/identity/auth/signing_key.ts";
import type { Clock } from "@/lib/core/clock.ts";
import type { Config } from "@/lib/core/config.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";

const keys = new WeakMap<Config, Promise<SigningKey>>();

/** The signing key `deps.config` names (AUTH_SIGNING_KEY, which testApp always sets). */
function testSigningKey(deps: AppDeps): Promise<SigningKey> {
  const { config } = deps;
  let key = keys.get(config);
  if (!key) {
    key = loadSigningKey({ jwkJson: config.authSigningKey, dataDir: config.dataDir });
    keys.set(config, key);
  }
  return key;
}

/** A token for `user` from the built-in issuer of `deps`; `sessionId` binds it to a session. */
export async function issueAccessToken(
  deps: AppDeps,
  user: AuthUser,
  options: { sessionId?: string; clock?: Clock } = {},
): Promise<{ token: string; expiresAt: number }> {
  return await signAccessToken(await testSigningKey(deps), user, {
    issuer: `${deps.config.siteUrl}/auth/v1`,
    clock: options.clock ?? deps.clock,
    sessionId: options.sessionId,
  });
}
