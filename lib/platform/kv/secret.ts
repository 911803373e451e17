/**
 * HMAC keys made of secrets generated once into KV and shared by every instance, for values
 * the service hands out and must recognise when they come back (an unsubscribe link, a sign-in
 * failure's words): no configuration to set, and nothing a client could forge.
 */

import type { Kv, KvKey } from "./kv.ts";

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The bytes of base64url `text` as `b64url` spells them (no other spelling), or undefined. */
function fromB64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.from(
      atob(text.replace(/-/g, "+").replace(/_/g, "/")),
      (c) => c.charCodeAt(0),
    );
  } catch {
    return undefined;
  }
  // A decoder ignores the last character's spare bits; only the one spelling was ever handed out.
  return b64url(bytes) === text ? bytes : undefined;
}

/** The HMAC-SHA256 key of the secret at `key`, generated on first use (the first writer wins). */
async function hmacKey(kv: Kv, key: KvKey): Promise<CryptoKey> {
  let entry = await kv.get<string>(key);
  if (!entry.value) {
    const fresh = b64url(crypto.getRandomValues(new Uint8Array(32)));
    await kv.atomic().check({ key, versionstamp: null }).set(key, fresh).commit();
    entry = await kv.get<string>(key);
  }
  return await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(entry.value!),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** The base64url HMAC-SHA256 of `text` under the secret at `key`. */
export async function kvMac(kv: Kv, key: KvKey, text: string): Promise<string> {
  const sig = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(kv, key),
    new TextEncoder().encode(text),
  );
  return b64url(new Uint8Array(sig));
}

/** Whether `mac` is `text`'s MAC under the secret at `key` (WebCrypto's verify, in constant time). */
export async function kvMacMatches(
  kv: Kv,
  key: KvKey,
  options: { text: string; mac: string },
): Promise<boolean> {
  const secret = await hmacKey(kv, key);
  const mac = fromB64url(options.mac);
  if (!mac) return false;
  return await crypto.subtle.verify("HMAC", secret, mac, new TextEncoder().encode(options.text));
}
