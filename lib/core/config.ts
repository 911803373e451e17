/**
 * The service's configuration, read from the environment here and nowhere else
 * (README.md's Configuration). A malformed value throws a ConfigError whose message is one line
 * naming the variable.
 */
import { regionCode } from "./regions.ts";
import {
  bodyTimeoutMs,
  ConfigError,
  type Env,
  historyReadWorkers,
  httpServer,
  port,
  positiveInteger,
  url,
  value,
} from "./config_values.ts";
import { readMailConfig, type SmtpConfig } from "./smtp_url.ts";
import { type AccessConfig, readAccessConfig } from "./config_access.ts";
import { readSupabaseConfig, type SupabaseConfig } from "./config_supabase.ts";
import { readVapidConfig, type VapidConfig } from "./config_vapid.ts";
import { aiFallback, type AiProvider, aiProviders } from "./config_ai.ts";
import { type JobsConfig, readJobsConfig } from "./config_jobs.ts";

export { ConfigError };
export type { SupabaseConfig };
export type { OidcConfig } from "./config_access.ts";
export type { AiProvider };

/** Server-side captcha verification for signup. */
export interface CaptchaConfig {
  provider: "turnstile" | "hcaptcha";
  secret: string;
  siteKey: string;
  /** The provider's siteverify URL (overridable so tests can point it at a fake). */
  verifyUrl: string;
}

/** Everything the service is configured with (the jobs' settings in JobsConfig). */
export interface Config extends JobsConfig {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** KV location; undefined means the platform KV (Deno Deploy). */
  kvPath?: string;
  /**
   * COORDINATION: where the shared window, quotas, locks, leases and limits live, `kv` (Deno KV,
   * the default) or `postgres` (DATABASE_URL's `coordination` schema; docs/coordination.md).
   */
  coordination: "kv" | "postgres";
  /** Public base URL of the service; the built-in identity provider's issuer hangs off it. */
  siteUrl: string;
  tmdb: {
    apiKey?: string;
    readAccessToken?: string;
    baseUrl: string;
    imageBaseUrl: string;
    watchRegion: string; // WATCH_REGION: the where-to-watch default region (docs/catalog.md)
  };
  aiProviders: AiProvider[];
  /**
   * AI_FALLBACK: `local` answers a GET /api/recommend that would be a 503 with the local picks
   * (`"source":"local"`, no quota spent); `off` (the default) keeps the 503 (docs/recommend.md).
   */
  aiFallback: "off" | "local";
  adminToken?: string;
  /** The platform's deployment id (Deno Deploy sets DENO_DEPLOYMENT_ID); the fallback version. */
  deploymentId?: string;
  supabase?: SupabaseConfig;
  captcha?: CaptchaConfig;
  /** ES256 private JWK (JSON) of the built-in identity provider, shared by several instances. */
  authSigningKey?: string;
  /**
   * SECRETS_KEY: 32 bytes (base64) sealing the secrets users save for other apps (a Seerr API key,
   * docs/trakt.md); unset, one is generated once into KV (apart from the database).
   */
  secretsKey?: Uint8Array<ArrayBuffer>;
  /** Behind a proxy: the request header carrying the client address (CLIENT_IP_HEADER). */
  clientIpHeader?: string;
  /** SMTP_URL; unset: reset links are logged for the operator instead. MAIL_FROM: the From. */
  smtp?: SmtpConfig;
  mailFrom: string;
  /** How long a request body may take to arrive (BODY_TIMEOUT_MS; docs/faults.md: 10 s). */
  bodyTimeoutMs: number;
  /** How long SIGTERM lets requests in flight finish (SHUTDOWN_DRAIN_MS; docs/faults.md: 10 s). */
  shutdownDrainMs: number;
  /**
   * HTTP_SERVER: `sockets` (default: our own server on Deno's sockets, which closes a stalled
   * body's socket after its 408) or `deno_serve` (`Deno.serve`, which keeps it; docs/faults.md); Deno
   * Deploy always serves through `Deno.serve`.
   */
  httpServer: "sockets" | "deno_serve";
  /** Signup mode, password sign-in, OIDC and redirect allow-list (docs/oidc.md). */
  access: AccessConfig;
  /**
   * HISTORY_READ_WORKERS: uploaded history files read at once, each in its own Web Worker
   * (docs/history.md); 0 reads them on the main thread in slices. Default 1, but 0 on Deno
   * Deploy and on a machine of fewer than 4 cores.
   */
  historyReadWorkers: number;
  /**
   * ALERT_PRIVATE_TARGETS=allow: alert channels may target private and loopback addresses (ntfy
   * on the home network; docs/alerts.md); otherwise only public ones.
   */
  alertPrivateTargets: boolean;
  /** VAPID_PRIVATE_KEY and VAPID_SUBJECT: Web Push's identity (docs/alerts.md, "Web Push"). */
  vapid: VapidConfig;
}

const CAPTCHA_VERIFY_URLS = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
} as const;

function captcha(env: Env): CaptchaConfig | undefined {
  const secret = value(env, "CAPTCHA_SECRET");
  if (!secret) return undefined;
  const provider = value(env, "CAPTCHA_PROVIDER") ?? "turnstile";
  if (provider !== "turnstile" && provider !== "hcaptcha") {
    throw new ConfigError(
      "CAPTCHA_PROVIDER",
      `must be "turnstile" or "hcaptcha", got ${JSON.stringify(provider)}`,
    );
  }
  return {
    provider,
    secret,
    siteKey: value(env, "CAPTCHA_SITE_KEY") ?? "",
    verifyUrl: url(env, "CAPTCHA_VERIFY_URL", CAPTCHA_VERIFY_URLS[provider]),
  };
}

function mail(env: Env, siteUrl: string): Pick<Config, "smtp" | "mailFrom"> {
  const raw = { smtpUrl: value(env, "SMTP_URL"), mailFrom: value(env, "MAIL_FROM") };
  const read = readMailConfig(raw, { siteUrl });
  if ("error" in read) throw new ConfigError(read.variable, read.error);
  return read;
}

/** Reads and validates the configuration; throws ConfigError on the first malformed variable. */
export function loadConfig(
  env: Env = Deno.env.toObject(),
  machine: { cores?: number } = {},
): Config {
  const cores = machine.cores ?? navigator.hardwareConcurrency;
  const p = port(env);
  const dataDir = value(env, "DATA_DIR") ?? "./data";
  const onDeploy = Boolean(value(env, "DENO_DEPLOYMENT_ID"));
  const tmdbKey = value(env, "TMDB_API_KEY");
  const tmdbToken = value(env, "TMDB_READ_ACCESS_TOKEN");
  const siteUrl = url(env, "SITE_URL", `http://localhost:${p}`);
  return {
    port: p,
    dataDir,
    databaseUrl: databaseUrl(env),
    coordination: coordination(env),
    kvPath: value(env, "DENO_KV_PATH") ?? (onDeploy ? undefined : `${dataDir}/kv.sqlite3`),
    siteUrl,
    tmdb: {
      apiKey: tmdbKey,
      readAccessToken: tmdbToken,
      baseUrl: url(env, "TMDB_BASE_URL", "https://api.themoviedb.org/3"),
      imageBaseUrl: url(env, "TMDB_IMAGE_BASE_URL", "https://image.tmdb.org/t/p"),
      watchRegion: watchRegion(env),
    },
    aiProviders: aiProviders(env),
    aiFallback: aiFallback(env),
    adminToken: value(env, "ADMIN_TOKEN"),
    deploymentId: value(env, "DENO_DEPLOYMENT_ID"),
    supabase: readSupabaseConfig(env),
    captcha: captcha(env),
    ...readJobsConfig(env),
    authSigningKey: value(env, "AUTH_SIGNING_KEY"),
    secretsKey: secretsKey(env),
    clientIpHeader: value(env, "CLIENT_IP_HEADER")?.toLowerCase(),
    ...mail(env, siteUrl),
    bodyTimeoutMs: bodyTimeoutMs(env),
    shutdownDrainMs: positiveInteger(env, "SHUTDOWN_DRAIN_MS", 10_000),
    httpServer: onDeploy ? "deno_serve" : httpServer(env),
    access: readAccessConfig(env),
    historyReadWorkers: historyReadWorkers(env, onDeploy || cores < 4),
    alertPrivateTargets: alertPrivateTargets(env),
    vapid: readVapidConfig(env),
  };
}

function alertPrivateTargets(env: Env): boolean {
  const raw = value(env, "ALERT_PRIVATE_TARGETS")?.toLowerCase();
  if (raw === undefined || raw === "deny") return false;
  if (raw === "allow") return true;
  throw new ConfigError(
    "ALERT_PRIVATE_TARGETS",
    `must be "allow" or "deny", got ${JSON.stringify(raw)}`,
  );
}

function secretsKey(env: Env): Uint8Array<ArrayBuffer> | undefined {
  const raw = value(env, "SECRETS_KEY");
  if (raw === undefined) return undefined;
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = Uint8Array.from(
      atob(raw.replace(/-/g, "+").replace(/_/g, "/")),
      (c) => c.charCodeAt(0),
    );
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 32) {
    throw new ConfigError("SECRETS_KEY", "must be 32 bytes in base64 (openssl rand -base64 32)");
  }
  return bytes;
}

function watchRegion(env: Env): string {
  const raw = value(env, "WATCH_REGION") ?? "US";
  const code = regionCode(raw);
  if (code) return code;
  throw new ConfigError("WATCH_REGION", `must be an ISO 3166-1 alpha-2 code, got "${raw}"`);
}

function databaseUrl(env: Env): string | undefined {
  const raw = value(env, "DATABASE_URL");
  if (raw === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError("DATABASE_URL", "must be a postgres:// or postgresql:// URL");
  }
  return raw;
}

function coordination(env: Env): "kv" | "postgres" {
  const raw = value(env, "COORDINATION") ?? "kv";
  if (raw !== "kv" && raw !== "postgres") {
    throw new ConfigError("COORDINATION", `must be "kv" or "postgres", got ${JSON.stringify(raw)}`);
  }
  if (raw === "postgres" && !databaseUrl(env)) {
    throw new ConfigError(
      "COORDINATION",
      "is postgres, which needs DATABASE_URL (the embedded store is one process's own)",
    );
  }
  return raw;
}

/** The database host for the startup line: never the password. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded (${config.dataDir}/pg)`;
  try {
    const u = new URL(config.databaseUrl);
    return `postgres at ${u.hostname}${u.port ? ":" + u.port : ""}${u.pathname}`;
  } catch {
    return "postgres (DATABASE_URL)";
  }
}
