/**
 * Supabase Auth as the identity provider (SUPABASE_URL set): access tokens are checked against
 * the project's JWKS with issuer `${SUPABASE_URL}/auth/v1` and audience `authenticated`. A
 * token signed with the legacy HS256 secret (which no JWKS publishes) is asked about at
 * `GET /auth/v1/user` instead.
 */
import { decodeJwt, decodeProtectedHeader } from "jose";
import type { SupabaseConfig } from "@/lib/core/config.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { verifyAccessToken } from "./access_token.ts";
import { unauthorized } from "./unauthorized.ts";
import type { AuthUser, TokenVerifier } from "./types.ts";
import { isUserDeleted } from "./deleted_users.ts";
import { getSupabaseUser } from "./supabase_admin.ts";
import { remoteJwks } from "./supabase_jwks.ts";
import { codeRequired } from "../mfa/code_owed.ts";
import { owesCode } from "../mfa/guard.ts";

/** The asymmetric algorithms Supabase's signing keys use (ECC P-256, RSA, Ed25519). */
const SUPABASE_ALGORITHMS = ["ES256", "RS256", "EdDSA"];

// An HS256 token cannot be checked here, but one that is expired, of another issuer or not a
// user's (the legacy anon key) is refused without a call: it would cost a round trip to
// Supabase per request, and a flood of them would spend the project's rate limit.
function worthAsking(token: string, issuer: string, nowMs: number): boolean {
  try {
    const claims = decodeJwt(token);
    return claims.iss === issuer && claims.role === "authenticated" &&
      typeof claims.exp === "number" && claims.exp * 1000 > nowMs;
  } catch {
    return false;
  }
}

/** Builds the verifier of a Supabase project's access tokens. */
export function createSupabaseVerifier(
  deps: AppDeps,
  supabase: SupabaseConfig,
): TokenVerifier & { readonly issuer: string; readonly jwksFetches: number } {
  const issuer = `${supabase.url}/auth/v1`;
  const jwks = remoteJwks(`${issuer}/.well-known/jwks.json`, deps);
  return {
    issuer,
    get jwksFetches() {
      return jwks.fetches;
    },
    verifyAccessToken: verifyToken,
    // Supabase's sessions are not checked here: its JWKS is the authority, as for PostgREST.
    verifyDeferringSession: async (token) => ({
      user: await verifyToken(token),
      session: null,
    }),
  };

  // A user deleted here (DELETE /api/account) is refused although the token still verifies.
  async function verifyToken(token: string): Promise<AuthUser> {
    const user = await verifySignature(token);
    if (await isUserDeleted(deps.kv, user.id)) {
      throw unauthorized("The account of this access token was deleted.", { invalidToken: true });
    }
    // Supabase's pattern, kept here too: a user with a verified factor needs an aal2 token.
    if (await owesCode(deps, user)) throw codeRequired();
    return user;
  }

  async function verifySignature(token: string): Promise<AuthUser> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw unauthorized("The access token is not valid.", { invalidToken: true });
    }
    if (alg === "HS256") {
      if (!worthAsking(token, issuer, deps.clock.now())) {
        throw unauthorized("The access token is not valid.", { invalidToken: true });
      }
      const user = await getSupabaseUser(supabase, token, { fetch: deps.fetch });
      if (!user) throw unauthorized("The access token is not valid.", { invalidToken: true });
      // Supabase has just vouched for the token, so its own claims can be read as they are.
      return { ...user, aal: decodeJwt(token).aal === "aal2" ? "aal2" : "aal1" };
    }
    const { id, email, aal } = await verifyAccessToken(jwks.getKey, token, {
      issuer,
      clock: deps.clock,
      algorithms: SUPABASE_ALGORITHMS,
    });
    return { id, email, aal };
  }
}
