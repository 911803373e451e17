/**
 * Web Push's VAPID identity (docs/alerts.md, "Web Push") as lib/core/config.ts reads it:
 * VAPID_PRIVATE_KEY (the P-256 private key as base64url of its 32 bytes, the form
 * `web-push generate-vapid-keys` prints) for several instances sharing one key, and
 * VAPID_SUBJECT (a `mailto:` or `https:` contact the push services may write to).
 */
import { ConfigError, type Env, value } from "./config_values.ts";

/** What the environment says about VAPID; unset members are generated or derived. */
export interface VapidConfig {
  /** base64url of the 32-byte private key; unset, one is generated once into $DATA_DIR. */
  privateKey?: string;
  /** `mailto:` or `https:` URL; unset, SITE_URL when it is https, else `mailto:` MAIL_FROM. */
  subject?: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodedLength(text: string): number {
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/")).length;
  } catch {
    return -1;
  }
}

/** Reads VAPID_PRIVATE_KEY and VAPID_SUBJECT; throws a ConfigError naming the bad one. */
export function readVapidConfig(env: Env): VapidConfig {
  const privateKey = value(env, "VAPID_PRIVATE_KEY");
  if (
    privateKey !== undefined && (!BASE64URL.test(privateKey) || decodedLength(privateKey) !== 32)
  ) {
    throw new ConfigError(
      "VAPID_PRIVATE_KEY",
      "must be a P-256 private key as base64url of 32 bytes (npx web-push generate-vapid-keys)",
    );
  }
  const subject = value(env, "VAPID_SUBJECT");
  if (subject !== undefined && !/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) {
    throw new ConfigError(
      "VAPID_SUBJECT",
      `must be a mailto: address or an https: URL, got ${JSON.stringify(subject)}`,
    );
  }
  return { privateKey, subject };
}
