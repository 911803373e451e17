/**
 * The identity provider's metadata (`/.well-known/openid-configuration`) and signing keys (its
 * `jwks_uri`), fetched through deps.fetch with a 10 s bound and kept 10 minutes; a token naming
 * a key not in the cached set refetches the keys (a rotation), at most once a minute.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { OidcConfig } from "@/lib/core/config.ts";
import { OidcFailure } from "./failure.ts";

/** The parts of the provider's metadata the sign-in uses. */
interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
  id_token_signing_alg_values_supported?: string[];
}

const KEEP_MS = 10 * 60_000;
const REFETCH_MS = 60_000;
const TIMEOUT_MS = 10_000;

/** The provider's metadata and keys, cached. */
export interface Discovery {
  metadata(): Promise<ProviderMetadata>;
  /** The key lookup for jose's jwtVerify. */
  keys(): JWTVerifyGetKey;
}

async function getJson(deps: AppDeps, url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await deps.fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new OidcFailure("server_error", "The sign-in provider could not be reached.");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new OidcFailure("server_error", "The sign-in provider answered with an error.");
  }
  return await res.json().catch(() => null);
}

/** Builds the cached discovery of `oidc.issuer`. */
export function createDiscovery(deps: AppDeps, oidc: OidcConfig): Discovery {
  let meta: { at: number; value: ProviderMetadata } | undefined;
  let jwks: { at: number; lookup: JWTVerifyGetKey } | undefined;

  async function metadata(): Promise<ProviderMetadata> {
    const now = deps.clock.now();
    if (meta && now - meta.at < KEEP_MS) return meta.value;
    const body = await getJson(deps, `${oidc.issuer}/.well-known/openid-configuration`) as
      | ProviderMetadata
      | null;
    // The metadata must name the issuer configured (OpenID Connect Discovery, section 4.3).
    if (
      !body || body.issuer?.replace(/\/+$/, "") !== oidc.issuer ||
      !body.authorization_endpoint || !body.token_endpoint || !body.jwks_uri
    ) {
      throw new OidcFailure("server_error", "The sign-in provider's settings could not be read.");
    }
    meta = { at: now, value: body };
    return body;
  }

  async function loadKeys(): Promise<JWTVerifyGetKey> {
    const body = await getJson(deps, (await metadata()).jwks_uri) as JSONWebKeySet | null;
    if (!body || !Array.isArray(body.keys)) {
      throw new OidcFailure("server_error", "The sign-in provider's keys could not be read.");
    }
    const lookup = createLocalJWKSet(body);
    jwks = { at: deps.clock.now(), lookup };
    return lookup;
  }

  return {
    metadata,
    keys: () => async (header, token) => {
      const now = deps.clock.now();
      const current = jwks && now - jwks.at < KEEP_MS ? jwks.lookup : await loadKeys();
      try {
        return await current(header, token);
      } catch (error) {
        // An unknown key id may be a rotation: refetch, but not on every forged token.
        if (!jwks || now - jwks.at < REFETCH_MS) throw error;
        return await (await loadKeys())(header, token);
      }
    },
  };
}
