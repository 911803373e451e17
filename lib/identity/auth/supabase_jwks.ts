/**
 * The Supabase project's public keys (`${SUPABASE_URL}/auth/v1/.well-known/jwks.json`), fetched
 * through deps.fetch and cached. The cache is refreshed after 10 minutes (the endpoint's own
 * max-age), keeping the old keys if that fails, and at most once a minute when a token names a
 * key id the cache does not know (a key rotation), so forged key ids cannot flood the project.
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { Clock } from "@/lib/core/clock.ts";
import { Problem } from "@/lib/core/problem.ts";

/** How long fetched keys are used before they are fetched again. */
const JWKS_TTL_MS = 10 * 60_000;
/** The least time between two fetches caused by an unknown key id. */
const JWKS_REFETCH_MS = 60_000;

const TIMEOUT_MS = 10_000;

/** A JWKS lookup for jose's jwtVerify, with the number of fetches made (for tests). */
interface RemoteJwks {
  getKey: JWTVerifyGetKey;
  readonly fetches: number;
}

/** Builds the cached lookup of the JWKS at `url`. */
export function remoteJwks(url: string, deps: { fetch: typeof fetch; clock: Clock }): RemoteJwks {
  let local: JWTVerifyGetKey | undefined;
  let fetchedAt = -Infinity;
  let attemptedAt = -Infinity;
  let inflight: Promise<void> | undefined;
  let fetches = 0;

  async function fetchKeys(): Promise<void> {
    attemptedAt = deps.clock.now();
    fetches++;
    const res = await deps.fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`JWKS answered ${res.status}`);
    }
    const jwks = await res.json() as JSONWebKeySet;
    if (!jwks || !Array.isArray(jwks.keys)) throw new Error("JWKS has no keys array");
    local = createLocalJWKSet(jwks);
    fetchedAt = deps.clock.now();
  }

  // One fetch at a time: concurrent requests wait for the same answer.
  function load(): Promise<void> {
    inflight ??= fetchKeys().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  async function ensureFresh(): Promise<void> {
    const now = deps.clock.now();
    if (local) {
      if (now - fetchedAt < JWKS_TTL_MS || now - attemptedAt < JWKS_REFETCH_MS) return;
      // Stale keys beat no keys: a failed refresh keeps the ones already fetched.
      await load().catch(() => {});
      return;
    }
    try {
      await load();
    } catch (cause) {
      throw new Problem(
        503,
        "identity_unavailable",
        "The identity provider's keys could not be fetched; try again in a moment.",
        { headers: { "Retry-After": "5" }, cause },
      );
    }
  }

  const getKey: JWTVerifyGetKey = async (header, token) => {
    await ensureFresh();
    try {
      return await local!(header, token);
    } catch (error) {
      const unknownKid = error instanceof errors.JWKSNoMatchingKey;
      if (!unknownKid || deps.clock.now() - attemptedAt < JWKS_REFETCH_MS) throw error;
      try {
        await load();
      } catch {
        throw error;
      }
      return await local!(header, token);
    }
  };

  return {
    getKey,
    get fetches() {
      return fetches;
    },
  };
}
