/**
 * Security headers of HTML pages. The Content-Security-Policy allows only this site's own
 * script (the islands bundle), TMDB's images, the identity provider and the captcha provider
 * the configuration names, so injected markup could neither run script nor send data away.
 */
import type { Config } from "../core/config.ts";

const CAPTCHA_ORIGINS = {
  turnstile: ["https://challenges.cloudflare.com"],
  hcaptcha: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
};

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

/** The policy for `config`. */
function contentSecurityPolicy(config: Config): string {
  const images = origin(config.tmdb.imageBaseUrl);
  const identity = config.supabase ? origin(config.supabase.url) : "";
  const captcha = config.captcha ? CAPTCHA_ORIGINS[config.captcha.provider] : [];
  const list = (...sources: string[]) => sources.filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    `img-src ${list("'self'", "data:", images, ...captcha)}`,
    `script-src ${list("'self'", ...captcha)}`,
    // hCaptcha styles its widget from its own origins.
    `style-src ${list("'self'", ...captcha)}`,
    `connect-src ${list("'self'", identity, ...captcha)}`,
    `frame-src ${captcha.length ? list(...captcha) : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// The policy depends only on the config, which never changes: build it once, not per page.
const policies = new WeakMap<Config, string>();

/** Sets the page headers on `headers`. */
export function setPageHeaders(headers: Headers, config: Config): void {
  let policy = policies.get(config);
  if (policy === undefined) policies.set(config, policy = contentSecurityPolicy(config));
  headers.set("Content-Security-Policy", policy);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
}
