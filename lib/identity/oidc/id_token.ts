/**
 * The code exchange at the identity provider and the check of its ID token: signature by the
 * provider's published keys, `iss`, `aud` (and `azp` with several audiences), `exp`, and the
 * `nonce` this sign-in sent. Any fault ends the sign-in with no session.
 */
import { errors, jwtVerify } from "jose";
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { OidcConfig } from "@/lib/core/config.ts";
import type { IdClaims } from "./accounts.ts";
import type { Discovery } from "./discovery.ts";
import { OidcFailure } from "./failure.ts";

const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "EdDSA",
];

/** Exchanges the provider's code for its ID token (the access token is not used). */
export async function exchangeCode(
  deps: AppDeps,
  oidc: OidcConfig,
  request: { discovery: Discovery; code: string; verifier: string; redirectUri: string },
): Promise<string> {
  const meta = await request.discovery.metadata();
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: request.code,
    redirect_uri: request.redirectUri,
    code_verifier: request.verifier,
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const methods = meta.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (oidc.clientSecret && methods.includes("client_secret_basic")) {
    const enc = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${btoa(`${enc(oidc.clientId)}:${enc(oidc.clientSecret)}`)}`;
  } else {
    form.set("client_id", oidc.clientId);
    if (oidc.clientSecret) form.set("client_secret", oidc.clientSecret);
  }
  let res: Response;
  try {
    res = await deps.fetch(meta.token_endpoint, {
      method: "POST",
      headers,
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new OidcFailure("server_error", "The sign-in provider could not be reached.");
  }
  const body = await res.json().catch(() => null) as { id_token?: unknown } | null;
  if (!res.ok || typeof body?.id_token !== "string") {
    throw new OidcFailure("server_error", "The sign-in provider did not complete the sign-in.");
  }
  return body.id_token;
}

/** Verifies the ID token; its claims, or an OidcFailure saying why not in plain words. */
export async function verifyIdToken(
  deps: AppDeps,
  oidc: OidcConfig,
  token: { idToken: string; nonce: string; discovery: Discovery },
): Promise<IdClaims> {
  const meta = await token.discovery.metadata();
  try {
    const { payload } = await jwtVerify(token.idToken, token.discovery.keys(), {
      issuer: meta.issuer,
      audience: oidc.clientId,
      algorithms: ALGORITHMS,
      currentDate: new Date(deps.clock.now()),
      clockTolerance: 60,
      requiredClaims: ["sub", "exp", "iat"],
    });
    if (payload.nonce !== token.nonce) throw new OidcFailure("access_denied", mismatch);
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== oidc.clientId) {
      throw new OidcFailure("access_denied", mismatch);
    }
    return {
      iss: String(payload.iss),
      sub: String(payload.sub),
      email: typeof payload.email === "string" ? payload.email : undefined,
      // Some providers send "true" as a string.
      emailVerified: payload.email_verified === true || payload.email_verified === "true",
      name: typeof payload.name === "string" ? payload.name.slice(0, 200) : undefined,
    };
  } catch (error) {
    if (error instanceof OidcFailure) throw error;
    if (error instanceof errors.JWTExpired) {
      throw new OidcFailure(
        "access_denied",
        "The sign-in took too long and expired. Please try again.",
      );
    }
    if (error instanceof errors.JOSEError) throw new OidcFailure("access_denied", mismatch);
    throw error;
  }
}

const mismatch =
  "The answer of the sign-in provider could not be verified, so it was not trusted. Please try again.";
