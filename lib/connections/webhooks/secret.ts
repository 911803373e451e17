/** A webhook secret and its digest: the digest is what a receiver looks a user up by. */

/** A new secret: 128 random bits, base64url (22 characters). */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The SHA-256 of `secret`, hex. Any string hashes, so an unknown one costs what a known one does. */
export async function secretDigest(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
