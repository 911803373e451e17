/**
 * The server's VAPID key pair (RFC 8292) and subject (docs/alerts.md, "Web Push"): the private key
 * from VAPID_PRIVATE_KEY (several instances share one), else generated once into
 * `$DATA_DIR/vapid-keys.json`; the public key is always derived from the private one, so the two
 * can never disagree.
 */
import { Buffer } from "node:buffer";
import { createECDH } from "node:crypto";
import type { Config } from "@/lib/core/config.ts";

/** The pair as web-push and PushManager.subscribe take it: base64url, public uncompressed. */
interface VapidKeys {
  /** base64url of the 65-byte uncompressed P-256 point (0x04 || x || y). */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
}

const FILE = "vapid-keys.json";
const loaded = new Map<string, Promise<VapidKeys>>();

function fromPrivate(privateKey: string): VapidKeys {
  const ecdh = createECDH("prime256v1");
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
  } catch {
    throw new Error("the VAPID private key is not a valid P-256 key");
  }
  return { publicKey: ecdh.getPublicKey("base64url"), privateKey };
}

async function fromDataDir(dir: string): Promise<VapidKeys> {
  const path = `${dir}/${FILE}`;
  try {
    return fromPrivate(JSON.parse(await Deno.readTextFile(path)).privateKey);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dir, { recursive: true });
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const made = {
    publicKey: ecdh.getPublicKey("base64url"),
    privateKey: ecdh.getPrivateKey("base64url"),
  };
  try {
    // createNew: when two processes start at once on one DATA_DIR, the first file wins for both.
    await Deno.writeTextFile(path, JSON.stringify(made), { createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  return fromPrivate(JSON.parse(await Deno.readTextFile(path)).privateKey);
}

/** The key pair of `config`, read or made once per process (per data directory). */
export function vapidKeys(config: Pick<Config, "vapid" | "dataDir">): Promise<VapidKeys> {
  const key = config.vapid.privateKey ? `key:${config.vapid.privateKey}` : `dir:${config.dataDir}`;
  let keys = loaded.get(key);
  if (!keys) {
    const configured = config.vapid.privateKey;
    keys = configured
      ? Promise.resolve().then(() => fromPrivate(configured))
      : fromDataDir(config.dataDir);
    // A failed read (a full disk) is tried again on the next use rather than kept.
    keys.catch(() => loaded.delete(key));
    loaded.set(key, keys);
  }
  return keys;
}

/**
 * Who the push services may contact (the JWT's `sub`): VAPID_SUBJECT, else SITE_URL when it is
 * https, else `mailto:` MAIL_FROM's address (push services refuse an http subject).
 */
export function vapidSubject(config: Pick<Config, "vapid" | "siteUrl" | "mailFrom">): string {
  if (config.vapid.subject) return config.vapid.subject;
  if (config.siteUrl.startsWith("https://")) return config.siteUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  return `mailto:${address.trim()}`;
}
