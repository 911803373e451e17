/** Share slugs: 128 random bits, base64url (22 characters), unguessable and URL-safe. */

/** A new slug. */
export function newSlug(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Whether `text` has a slug's shape (anything else is answered 404 without a query). */
export function isSlug(text: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(text);
}
