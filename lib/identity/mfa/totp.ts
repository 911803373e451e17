/**
 * RFC 6238 time-based codes as authenticator apps and Supabase Auth compute them: HMAC-SHA1,
 * 6 digits, 30 s steps, base32 secrets of 20 random bytes. A code is accepted for its own step
 * and one step either side (clock drift); which step matched is returned so each is used once.
 * The codes and secrets are otpauth's.
 */
import { HOTP, Secret, TOTP } from "otpauth";

/** Seconds per step. */
export const TOTP_PERIOD_S = 30;
/** Steps accepted on either side of the current one. */
export const TOTP_DRIFT_STEPS = 1;

const ALGORITHM = "SHA1";
const DIGITS = 6;

/** A new secret: 20 random bytes in base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The step whose code `code` is, within the drift window around `nowMs`; null when none. */
export function matchTotp(secret: string, code: string, options: { nowMs: number }): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = Secret.fromBase32(secret);
  // WebCrypto refused an empty HMAC key, and anyone can compute the codes of no secret.
  if (key.bytes.length === 0) throw new Error("The factor has no TOTP secret.");
  const now = TOTP.counter({ period: TOTP_PERIOD_S, timestamp: options.nowMs });
  let matched: number | null = null;
  // Every candidate is computed (otpauth's own validate stops at the first match, and looks at
  // the current step first), so the time taken does not say which step matched, and the
  // earliest matching step is the one spent.
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    // One step at a time (window 0); otpauth compares the codes in constant time.
    const delta = HOTP.validate({
      token: code,
      secret: key,
      algorithm: ALGORITHM,
      digits: DIGITS,
      counter: step,
      window: 0,
    });
    if (delta === 0 && matched === null) matched = step;
  }
  return matched;
}

/**
 * The otpauth:// URI authenticator apps read (the QR code's content), as Supabase Auth forms it:
 * its parameters in alphabetical order (otpauth's own `toString` orders them otherwise).
 */
export function totpUri(secret: string, options: { issuer: string; account: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  const query = new URLSearchParams({
    algorithm: ALGORITHM,
    digits: String(DIGITS),
    issuer: options.issuer,
    period: String(TOTP_PERIOD_S),
    secret,
  });
  return `otpauth://totp/${label}?${query}`;
}
