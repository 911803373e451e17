/** A personal token's value and its digest: the value is shown once, the digest is stored. */

/** Every personal token starts so, which tells it from a session's JWT at a glance. */
const TOKEN_PREFIX = "mvt_";

const TOKEN_SHAPE = /^mvt_[A-Za-z0-9_-]{43}$/;

/** A new token value: the prefix and 256 random bits, base64url. */
export function newTokenValue(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const b64 = btoa(String.fromCharCode(...bytes));
  return TOKEN_PREFIX + b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Whether `value` is shaped like a personal token (a Bearer value that is not a JWT). */
export function isPersonalToken(value: string): boolean {
  return value.startsWith(TOKEN_PREFIX);
}

/** Whether `value` could be a token this service made (anything else is refused unread). */
export function isWellFormed(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** The SHA-256 of `value`, hex: what the table keeps. */
export async function tokenDigest(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
