/** Access tokens: signed as Supabase Auth signs them (built-in), verified for either provider. */
import { errors, jwtVerify, type JWTVerifyGetKey, SignJWT } from "jose";
import type { Clock } from "@/lib/core/clock.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { AuthUser } from "./types.ts";
import { unauthorized } from "./unauthorized.ts";
import type { SigningKey } from "./signing_key.ts";

/** Lifetime of an access token, in seconds. */
export const ACCESS_TOKEN_TTL_S = 3600;

/** The audience Supabase puts in user tokens. */
const AUDIENCE = "authenticated";

/** The assurance level of a session: a password (or OIDC) alone, or with a second factor. */
export type Aal = "aal1" | "aal2";

/** One authentication method of a session (the token's `amr` claim). */
export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** The `amr` method names Supabase Auth uses. */
export const AAL_METHODS = { totp: "totp", password: "password", oauth: "oauth" } as const;

/** What a verified access token says. */
export interface VerifiedToken extends AuthUser {
  sessionId?: string;
  /** How the session began (`password`, `oauth`, `recovery`): the first `amr` method. */
  method?: string;
  /** The token's `exp`, in seconds since the epoch. */
  expiresAt: number;
}

/** Signs an access token for `user`; `sessionId` ties it to a refresh-token session. */
export async function signAccessToken(
  key: SigningKey,
  user: AuthUser,
  options: { issuer: string; clock: Clock; sessionId?: string; aal?: Aal; amr?: AmrEntry[] },
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(options.clock.now() / 1000);
  const expiresAt = iat + ACCESS_TOKEN_TTL_S;
  const token = await new SignJWT({
    email: user.email,
    phone: "",
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: {},
    role: "authenticated",
    aal: options.aal ?? "aal1",
    amr: options.amr ?? [{ method: "password", timestamp: iat }],
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

function firstMethod(amr: unknown): string | undefined {
  if (!Array.isArray(amr)) return undefined;
  const methods = amr.map((entry) => (entry as { method?: unknown })?.method);
  const first = methods.find((m) => typeof m === "string" && m !== AAL_METHODS.totp);
  return typeof first === "string" ? first : undefined;
}

/** Tokens longer than this are refused unread (an ES256 token of ours is about 600 characters). */
const MAX_TOKEN_CHARS = 8192;
/** How far in the future a token's `iat` may lie (clock skew between issuer and us). */
const IAT_SKEW_S = 60;

/**
 * Verifies signature (only the listed asymmetric algorithms, so never `none` or HMAC), expiry,
 * issuer, audience and role; any failure is a 401. `key` is a public key or a JWKS lookup.
 */
export async function verifyAccessToken(
  key: CryptoKey | JWTVerifyGetKey,
  token: string,
  options: { issuer: string; clock: Clock; algorithms?: string[] },
): Promise<VerifiedToken> {
  // Ours are under 1 KB; a huge token is refused before any decoding work is spent on it.
  if (token.length > MAX_TOKEN_CHARS) {
    throw unauthorized("The access token is not valid.", { invalidToken: true });
  }
  try {
    const { payload } = await jwtVerify(token, key as CryptoKey, {
      algorithms: options.algorithms ?? ["ES256"],
      issuer: options.issuer,
      audience: AUDIENCE,
      currentDate: new Date(options.clock.now()),
      requiredClaims: ["sub", "exp"],
    });
    // jose checks a future iat only with maxTokenAge; a token "issued" later than a minute from
    // now was not issued by a sane clock (the skew Supabase Auth tolerates too).
    const now = options.clock.now() / 1000;
    if (typeof payload.iat === "number" && payload.iat > now + IAT_SKEW_S) {
      throw unauthorized("The access token is not valid.", { invalidToken: true });
    }
    if (typeof payload.sub !== "string" || payload.role !== "authenticated") {
      throw unauthorized("The access token is not a user's token.", { invalidToken: true });
    }
    return {
      id: payload.sub,
      email: typeof payload.email === "string" ? payload.email : "",
      sessionId: typeof payload.session_id === "string" ? payload.session_id : undefined,
      aal: payload.aal === "aal2" ? "aal2" : "aal1",
      method: firstMethod(payload.amr),
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
