/** ES256 access tokens of the built-in provider, shaped as Supabase Auth issues them. */
import { errors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../clock.ts";
import { Problem } from "../problem.ts";
import type { AuthUser } from "./mod.ts";
import type { SigningKey } from "./signing_key.ts";

/** Lifetime of an access token, in seconds. */
export const ACCESS_TOKEN_TTL_S = 3600;

/** The audience Supabase puts in user tokens. */
export const AUDIENCE = "authenticated";

/** A 401 for a bad or missing token. */
export function unauthorized(detail = "A valid bearer access token is required."): Problem {
  return new Problem(401, "unauthorized", detail, {
    headers: { "WWW-Authenticate": 'Bearer realm="api"' },
  });
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
    role: "authenticated",
    aal: "aal1",
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

/** Verifies signature, algorithm, expiry, issuer and audience; any failure is a 401. */
export async function verifyAccessToken(
  key: SigningKey,
  token: string,
  options: { issuer: string; clock: Clock },
): Promise<AuthUser & { sessionId?: string }> {
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ["ES256"],
      issuer: options.issuer,
      audience: AUDIENCE,
      currentDate: new Date(options.clock.now()),
      requiredClaims: ["sub", "exp"],
    });
    if (typeof payload.sub !== "string" || payload.role !== "authenticated") throw unauthorized();
    return {
      id: payload.sub,
      email: typeof payload.email === "string" ? payload.email : "",
      sessionId: typeof payload.session_id === "string" ? payload.session_id : undefined,
    };
  } catch (error) {
    if (error instanceof Problem) throw error;
    if (error instanceof errors.JWTExpired) throw unauthorized("The access token has expired.");
    throw unauthorized("The access token is not valid.");
  }
}
