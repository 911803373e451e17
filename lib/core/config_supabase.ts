/**
 * Supabase Auth as the identity provider (docs/identity.md, "Supabase mode"): the project URL and
 * its two API keys, read from the environment lib/core/config.ts hands over. Supabase replaces the
 * legacy JWT keys (`anon`, `service_role`) with `sb_publishable_...` and `sb_secret_...` keys by the
 * end of 2026; both formats are accepted under the new names and the old ones.
 */
import { ConfigError, type Env, url, value } from "./config_values.ts";

/** Supabase Auth as the identity provider. */
export interface SupabaseConfig {
  url: string;
  /** The publishable key (`sb_publishable_...`) or the legacy `anon` JWT: public, sent to pages. */
  anonKey: string;
  /** The secret key (`sb_secret_...`) or the legacy `service_role` JWT: server only. */
  serviceRoleKey?: string;
}

// The role a legacy key (a JWT) names in its claims, read without checking its signature: only
// to catch a key pasted into the wrong variable. A new key is not a JWT and is never decoded.
function legacyRole(key: string): string | undefined {
  const parts = key.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const json = atob(parts[1].replaceAll("-", "+").replaceAll("_", "/"));
    const role = JSON.parse(json)?.role;
    return typeof role === "string" ? role : undefined;
  } catch {
    return undefined;
  }
}

/** Which of the two kinds of key `key` is, by its prefix (new keys) or its role claim (legacy). */
function keyKind(key: string): "public" | "secret" | undefined {
  if (key.startsWith("sb_publishable_")) return "public";
  if (key.startsWith("sb_secret_")) return "secret";
  const role = legacyRole(key);
  if (role === "anon") return "public";
  if (role === "service_role") return "secret";
  return undefined;
}

// The new name wins when both are set: an operator moving to the new keys sets it and may
// remove the old one later.
function key(env: Env, names: { current: string; legacy: string }): [string, string] | undefined {
  for (const name of [names.current, names.legacy]) {
    const found = value(env, name);
    if (found) return [name, found];
  }
  return undefined;
}

const PUBLIC = { current: "SUPABASE_PUBLISHABLE_KEY", legacy: "SUPABASE_ANON_KEY" };
const SECRET = { current: "SUPABASE_SECRET_KEY", legacy: "SUPABASE_SERVICE_ROLE_KEY" };

/** The Supabase settings, or undefined when SUPABASE_URL is unset (the built-in provider). */
export function readSupabaseConfig(env: Env): SupabaseConfig | undefined {
  if (!value(env, "SUPABASE_URL")) return undefined;
  const pub = key(env, PUBLIC);
  if (!pub) {
    throw new ConfigError(
      PUBLIC.current,
      `(or ${PUBLIC.legacy}) must be set when SUPABASE_URL is set`,
    );
  }
  // The public key is written into every page for supabase-js: a secret key there would give
  // anyone full access to the project.
  if (keyKind(pub[1]) === "secret") {
    throw new ConfigError(pub[0], "holds a secret key; it must be the publishable (anon) key");
  }
  const secret = key(env, SECRET);
  if (secret && keyKind(secret[1]) === "public") {
    throw new ConfigError(secret[0], "holds a publishable key; it must be the secret key");
  }
  return { url: url(env, "SUPABASE_URL", ""), anonKey: pub[1], serviceRoleKey: secret?.[1] };
}

/** Whether `key` is a legacy JWT key, which Supabase also takes as `Authorization: Bearer`. */
export function isLegacyJwtKey(key: string): boolean {
  return !key.startsWith("sb_") && key.split(".").length === 3;
}
