/**
 * The signed link of the digest's one-click unsubscribe (RFC 8058): `<user id>.<HMAC-SHA256>`
 * base64url, under a secret generated once into KV and shared by every instance, so the link
 * needs no sign-in and cannot be forged for another user. It never expires: all it can do is
 * turn alerts off.
 */
import type { Kv, KvKey } from "@/lib/platform/kv/kv.ts";
import { kvMac, kvMacMatches } from "@/lib/platform/kv/secret.ts";

const SECRET_KEY: KvKey = ["notifications", "unsubscribe_secret"];
const PURPOSE = "unsubscribe:email_alerts:";

/** The token of `userId`'s unsubscribe link. */
export async function unsubscribeToken(kv: Kv, userId: string): Promise<string> {
  return `${userId}.${await kvMac(kv, SECRET_KEY, PURPOSE + userId)}`;
}

/** The user a token was made for, or null when it is not one of ours. */
export async function verifyUnsubscribeToken(kv: Kv, token: string): Promise<string | null> {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const ok = await kvMacMatches(kv, SECRET_KEY, { text: PURPOSE + match[1], mac: match[2] });
  return ok ? match[1] : null;
}
