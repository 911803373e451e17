/** The identity service the routes use: verifies access tokens of the configured provider. */
import type { AppDeps } from "../deps.ts";
import { signAccessToken, verifyAccessToken } from "./access_token.ts";
import type { AuthUser, TokenVerifier } from "./mod.ts";
import { loadSigningKey, type SigningKey } from "./signing_key.ts";

/** The identity service. */
export interface AuthService extends TokenVerifier {
  /** The built-in provider's signing key (loaded once). */
  signingKey(): Promise<SigningKey>;
  /** The `iss` of the built-in provider's tokens. */
  readonly issuer: string;
  /** Issues an access token for `user` (built-in provider). */
  issueAccessToken(
    user: AuthUser,
    options?: { sessionId?: string },
  ): Promise<{ token: string; expiresAt: number }>;
}

/** Builds the identity service from the app's dependencies. */
export function createAuthService(deps: AppDeps): AuthService {
  let key: Promise<SigningKey> | undefined;
  const signingKey = () =>
    key ??= loadSigningKey({ jwkJson: deps.config.authSigningKey, dataDir: deps.config.dataDir });
  const issuer = `${deps.config.siteUrl}/auth/v1`;
  return {
    issuer,
    signingKey,
    async verifyAccessToken(token) {
      const { id, email } = await verifyAccessToken(await signingKey(), token, {
        issuer,
        clock: deps.clock,
      });
      return { id, email };
    },
    async issueAccessToken(user, options = {}) {
      return await signAccessToken(await signingKey(), user, {
        issuer,
        clock: deps.clock,
        sessionId: options.sessionId,
      });
    },
  };
}
