/** Identity: who the bearer of an access token is. */

/** The user an access token names. */
export interface AuthUser {
  id: string;
  email: string;
}

/** Resolves access tokens to users; throws a 401 `unauthorized` Problem for any bad token. */
export interface TokenVerifier {
  verifyAccessToken(token: string): Promise<AuthUser>;
}
