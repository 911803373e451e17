/**
 * A browser's push subscription as a webpush channel is created with (docs/alerts.md, "Web
 * Push"): `PushSubscription.toJSON()`'s endpoint and keys. The endpoint is always https (every
 * push service is; RFC 8030 requires it), `p256dh` an uncompressed P-256 point (65 bytes) that
 * lies on the curve, `auth` 16 bytes, both base64url as browsers give them.
 */
import { Buffer } from "node:buffer";
import { createECDH } from "node:crypto";
import { z } from "zod";

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function bytes(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  return new Uint8Array(Buffer.from(text.replace(/=+$/, ""), "base64url"));
}

function isCurvePoint(raw: Uint8Array): boolean {
  if (raw.length !== 65 || raw[0] !== 4) return false;
  try {
    // Deriving a secret with a throwaway key checks that the point is on P-256.
    const probe = createECDH("prime256v1");
    probe.generateKeys();
    probe.computeSecret(raw);
    return true;
  } catch {
    return false;
  }
}

/**
 * The subscription's schema: what toJSON() gives. Members a browser may add later are dropped,
 * not refused, so a new browser can still subscribe.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().max(2048).refine((value) => {
    try {
      return new URL(value).protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an https URL"),
  // PushSubscription.toJSON() has it; push services that expire subscriptions say so with a
  // 404 or 410 at delivery, which removes the channel, so the time itself is not kept.
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().max(200).refine(
      (value) => isCurvePoint(bytes(value) ?? new Uint8Array()),
      "must be base64url of a 65-byte uncompressed P-256 point",
    ),
    auth: z.string().max(100).refine(
      (value) => bytes(value)?.length === 16,
      "must be base64url of 16 bytes",
    ),
  }),
});
