/**
 * Sealing a secret a user saves (their Seerr API key, an alert channel's target and token):
 * AES-256-GCM under SECRETS_KEY, or else a key generated once into KV, so the database holds only
 * ciphertext and a copy of it alone opens nothing (docs/trakt.md, "Other apps"; docs/alerts.md).
 */
import type { Kv, KvKey } from "./kv.ts";

const KV_KEY: KvKey = ["secrets", "seal_key"];

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(
      atob(text.replace(/-/g, "+").replace(/_/g, "/")),
      (c) => c.charCodeAt(0),
    );
  } catch {
    return undefined;
  }
}

/** Where the sealing key comes from: the configured bytes, else KV (generated on first use). */
export interface SealKeySource {
  kv: Kv;
  configured?: Uint8Array<ArrayBuffer>;
}

// The key of each source, read and imported once: it never changes once written (the first writer
// wins), and the alert queue opens a channel's settings at every delivery.
const KEYS = new WeakMap<object, Promise<CryptoKey>>();

function sealKey(source: SealKeySource): Promise<CryptoKey> {
  const holder = source.configured ?? source.kv;
  let key = KEYS.get(holder);
  if (!key) {
    key = readSealKey(source);
    KEYS.set(holder, key);
    // A failed read (KV unreachable) is not kept: the next use tries again.
    key.catch(() => KEYS.delete(holder));
  }
  return key;
}

async function readSealKey(source: SealKeySource): Promise<CryptoKey> {
  let raw = source.configured;
  if (!raw) {
    let entry = await source.kv.get<string>(KV_KEY);
    if (!entry.value) {
      const fresh = b64url(crypto.getRandomValues(new Uint8Array(32)));
      // The first writer wins; every instance then reads the same key.
      await source.kv.atomic().check({ key: KV_KEY, versionstamp: null }).set(KV_KEY, fresh)
        .commit();
      entry = await source.kv.get<string>(KV_KEY);
    }
    raw = fromB64url(entry.value!);
  }
  return await crypto.subtle.importKey("raw", raw!, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** `plain` sealed: base64url of a fresh 12-byte nonce and the AES-GCM ciphertext. */
export async function seal(source: SealKeySource, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealKey(source),
    new TextEncoder().encode(plain),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return b64url(out);
}

/** The text `sealed` holds; undefined when it was sealed under another key or altered. */
export async function unseal(source: SealKeySource, sealed: string): Promise<string | undefined> {
  const bytes = fromB64url(sealed);
  if (!bytes || bytes.length < 13) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12) },
      await sealKey(source),
      bytes.slice(12),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}
