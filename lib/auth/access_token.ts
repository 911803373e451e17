/** Access tokens: signed as Supabase Auth signs them (built-in), verified for either provider. */
import { errors, jwtVerify, type JWTVerifyGetKey, SignJWT } from "jose";
import type { Clock } from "../clock.ts";
import { Problem } from "../problem.ts";
import type { AuthUser } from "./types.ts";
import { unauthorized } from "./unauthorized.ts";
import type { SigningKey } from "./signing_key.ts";

/** Lifetime of an access token, in seconds. */
export const ACCESS_TOKEN_TTL_S = 3600;

/** The audience Supabase puts in user tokens. */
export const AUDIENCE = "authenticated";

/** What a verified access token says. */
export interface VerifiedToken extends AuthUser {
  sessionId?: string;
  /** The token's `exp`, in seconds since the epoch. */
  expiresAt: number;
}

/** Signs an access token for `user`; `sessionId` ties it to a refresh-token session. */
export async function signAccessToken(
  key: SigningKey,
  user: AuthUser,
  options: { issuer: string; clock: Clock; sessionId?: string },
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(options.clock.now() / 1000);
  const expiresAt = iat + ACCESS_TOKEN_TTL_S;
  const token = await new SignJWT({
    email: user.email,
    phone: "",
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: {},
    role: "authenticated",
    aal: "aal1",
    amr: [{ method: "password", timestamp: iat }],
    ...(options.sessionId ? { session_id: options.sessionId } : {}),
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setSubject(user.id)
    .setAudience(AUDIENCE)
    .setIssuer(options.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey);
  return { token, expiresAt };
}

/**
 * Verifies signature (only the listed asymmetric algorithms, so never `none` or HMAC), expiry,
 * issuer, audience and role; any failure is a 401. `key` is a public key or a JWKS lookup.
 */
export async function verifyAccessToken(
  key: CryptoKey | JWTVerifyGetKey,
  token: string,
  options: { issuer: string; clock: Clock; algorithms?: string[] },
): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, key as CryptoKey, {
      algorithms: options.algorithms ?? ["ES256"],
      issuer: options.issuer,
      audience: AUDIENCE,
      currentDate: new Date(options.clock.now()),
      requiredClaims: ["sub", "exp"],
    });
    if (typeof payload.sub !== "string" || payload.role !== "authenticated") {
      throw unauthorized("The access token is not a user's token.", { invalidToken: true });
    }
    return {
      id: payload.sub,
      email: typeof payload.email === "string" ? payload.email : "",
      sessionId: typeof payload.session_id === "string" ? payload.session_id : undefined,
      expiresAt: Number(payload.exp),
    };
  } catch (error) {
    if (error instanceof Problem) throw error;
    if (error instanceof errors.JWTExpired) {
      throw unauthorized("The access token has expired.", { invalidToken: true });
    }
    if (error instanceof errors.JOSEError || error instanceof TypeError) {
      throw unauthorized("The access token is not valid.", { invalidToken: true });
    }
    throw error;
  }
}
