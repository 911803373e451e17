/**
 * Who may come in (docs/oidc.md): the signup mode, password sign-in, the OpenID Connect
 * provider and the redirect allow-list, read from the environment lib/core/config.ts hands over.
 */
import { ConfigError, type Env, url, value } from "./config_values.ts";

/** Who may create an account: anyone, holders of an invite, or nobody. */
type SignupMode = "open" | "invite" | "closed";

/** The instance's OpenID Connect provider (sign-in with it through the built-in provider). */
export interface OidcConfig {
  /** OIDC_ISSUER: the issuer URL, whose /.well-known/openid-configuration is read. */
  issuer: string;
  clientId: string;
  /** Unset for a public client (PKCE alone). */
  clientSecret?: string;
  /** OIDC_NAME: the label of the sign-in button. */
  name: string;
  scopes: string[];
}

/** The access settings. */
export interface AccessConfig {
  signup: SignupMode;
  /** PASSWORD_LOGIN=false: password sign-in is off (single sign-on only). */
  passwordLogin: boolean;
  /** AUTH_REDIRECT_ALLOW: origins or URL prefixes a sign-in may return to besides SITE_URL. */
  redirectAllow: string[];
  oidc?: OidcConfig;
}

function signupMode(env: Env): SignupMode {
  const raw = (value(env, "SIGNUP") ?? "open").toLowerCase();
  if (raw === "open" || raw === "invite" || raw === "closed") return raw;
  throw new ConfigError("SIGNUP", `must be open, invite or closed, got ${JSON.stringify(raw)}`);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got ${JSON.stringify(raw)}`);
}

function oidc(env: Env): OidcConfig | undefined {
  if (!value(env, "OIDC_ISSUER")) return undefined;
  const clientId = value(env, "OIDC_CLIENT_ID");
  if (!clientId) throw new ConfigError("OIDC_CLIENT_ID", "must be set when OIDC_ISSUER is set");
  const scopes = (value(env, "OIDC_SCOPES") ?? "openid email profile").split(/[\s,]+/)
    .filter(Boolean);
  if (!scopes.includes("openid")) {
    throw new ConfigError("OIDC_SCOPES", "must include openid");
  }
  return {
    issuer: url(env, "OIDC_ISSUER", ""),
    clientId,
    clientSecret: value(env, "OIDC_CLIENT_SECRET"),
    name: value(env, "OIDC_NAME") ?? "single sign-on",
    scopes,
  };
}

function redirectAllow(env: Env): string[] {
  const raw = value(env, "AUTH_REDIRECT_ALLOW");
  if (!raw) return [];
  return raw.split(/[\s,]+/).filter(Boolean).map((entry) => {
    try {
      const parsed = new URL(entry);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
      return entry;
    } catch {
      throw new ConfigError(
        "AUTH_REDIRECT_ALLOW",
        `must list absolute http(s) URLs, got ${JSON.stringify(entry)}`,
      );
    }
  });
}

/** Reads SIGNUP, PASSWORD_LOGIN, AUTH_REDIRECT_ALLOW and the OIDC_* variables. */
export function readAccessConfig(env: Env): AccessConfig {
  return {
    signup: signupMode(env),
    passwordLogin: flag(env, "PASSWORD_LOGIN", true),
    redirectAllow: redirectAllow(env),
    oidc: oidc(env),
  };
}
