/**
 * The secrets of Trakt sign-in (docs/trakt.md, "Sign-in"): client ids, client secrets, device
 * codes and tokens are 256 random bits in hex, as Trakt's are; only their SHA-256 is stored.
 */

/** The alphabet of the codes a person types on /activate: no 0/O, 1/I look-alikes. */
const USER_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const USER_CODE_LENGTH = 8;

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** 256 random bits as 64 hex characters. */
export function randomSecret(): string {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The SHA-256 of `value`, hex: what the tables keep. */
export async function secretDigest(value: string): Promise<string> {
  return hex(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))),
  );
}

/** Whether `value` is shaped like a secret made here (anything else is refused unread). */
export function isSecretShaped(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}

/** A new user code: 8 characters of the alphabet, drawn without bias. */
export function newUserCode(): string {
  let code = "";
  while (code.length < USER_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      // 256 = 8 * 32: every byte maps evenly onto the 32 letters.
      if (code.length < USER_CODE_LENGTH) code += USER_CODE_ALPHABET[byte % 32];
    }
  }
  return code;
}

/**
 * A typed user code as stored: upper case, without spaces or dashes; undefined when it cannot be
 * one (wrong length or a letter outside the alphabet).
 */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return undefined;
  return code;
}
