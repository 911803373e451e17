/**
 * The signed link of the digest's one-click unsubscribe (RFC 8058): `<user id>.<HMAC-SHA256>`
 * base64url, under a secret generated once into KV and shared by every instance, so the link
 * needs no sign-in and cannot be forged for another user. It never expires: all it can do is
 * turn alerts off.
 */
const SECRET_KEY: Deno.KvKey = ["notifications", "unsubscribe_secret"];
const PURPOSE = "unsubscribe:email_alerts:";

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function secret(kv: Deno.Kv): Promise<CryptoKey> {
  let entry = await kv.get<string>(SECRET_KEY);
  if (!entry.value) {
    const fresh = b64url(crypto.getRandomValues(new Uint8Array(32)));
    // The first instance's secret wins; the others read it.
    await kv.atomic().check({ key: SECRET_KEY, versionstamp: null }).set(SECRET_KEY, fresh)
      .commit();
    entry = await kv.get<string>(SECRET_KEY);
  }
  return await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(entry.value!),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

async function mac(kv: Deno.Kv, userId: string): Promise<string> {
  const key = await secret(kv);
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(PURPOSE + userId));
  return b64url(new Uint8Array(sig));
}

/** The token of `userId`'s unsubscribe link. */
export async function unsubscribeToken(kv: Deno.Kv, userId: string): Promise<string> {
  return `${userId}.${await mac(kv, userId)}`;
}

/** The user a token was made for, or null when it is not one of ours. */
export async function verifyUnsubscribeToken(kv: Deno.Kv, token: string): Promise<string | null> {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = await mac(kv, match[1]);
  // Constant time: compare every character.
  let diff = expected.length ^ match[2].length;
  for (let i = 0; i < expected.length; i++) {
    diff |= expected.charCodeAt(i) ^ match[2].charCodeAt(i);
  }
  return diff === 0 ? match[1] : null;
}
