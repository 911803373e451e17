/**
 * RFC 6238 time-based codes as authenticator apps and Supabase Auth compute them: HMAC-SHA1,
 * 6 digits, 30 s steps, base32 secrets of 20 random bytes. A code is accepted for its own step
 * and one step either side (clock drift); which step matched is returned so each is used once.
 */

/** Seconds per step. */
export const TOTP_PERIOD_S = 30;
/** Steps accepted on either side of the current one. */
export const TOTP_DRIFT_STEPS = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A new secret: 20 random bytes in base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return base32(crypto.getRandomValues(new Uint8Array(20)));
}

function base32(bytes: Uint8Array): string {
  let bits = 0, value = 0, out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/=+$/, "");
  const out: number[] = [];
  let bits = 0, value = 0;
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The code of `step` (seconds / 30) for a base32 secret. */
async function totpCode(secret: string, step: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    unbase32(secret),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter));
  const offset = mac[mac.length - 1] & 15;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) |
    (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 1_000_000).padStart(6, "0");
}

/** The step of `nowMs`. */
function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S);
}

/** The step whose code `code` is, within the drift window around `nowMs`; null when none. */
export async function matchTotp(
  secret: string,
  code: string,
  options: { nowMs: number },
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(options.nowMs);
  let matched: number | null = null;
  // Every candidate is computed, so the time taken does not say which step matched.
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    if (constantTimeEqual(await totpCode(secret, step), code) && matched === null) matched = step;
  }
  return matched;
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The otpauth:// URI authenticator apps read (the QR code's content), as Supabase Auth forms it. */
export function totpUri(secret: string, options: { issuer: string; account: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  const query = new URLSearchParams({
    algorithm: "SHA1",
    digits: "6",
    issuer: options.issuer,
    period: String(TOTP_PERIOD_S),
    secret,
  });
  return `otpauth://totp/${label}?${query}`;
}
