/** Comparing an admin token with the configured one, in constant time (docs/catalog_import.md). */

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * Whether `given` equals `expected`. Both sides are hashed first, so the comparison runs over
 * two equal-length digests and its time says nothing about the token's length or content.
 */
export async function adminTokenMatches(
  given: string | undefined,
  expected: string | undefined,
): Promise<boolean> {
  // No configured token means nothing matches; hash anyway so the answer takes as long.
  const [a, b] = await Promise.all([digest(given ?? ""), digest(expected ?? "")]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0 && given !== undefined && expected !== undefined && expected !== "";
}
