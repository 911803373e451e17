/** A night's join token: 128 random bits in the link, only its SHA-256 in the store. */

/** A token as the link carries it: 16 random bytes, base64url (22 characters). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

/** A new join token. */
export function newJoinToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Whether `value` could be a token this service made (anything else is a wrong token unread). */
export function isJoinToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** The SHA-256 of `token`, hex: what the night's row keeps. */
export async function joinTokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two hex digests in time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
