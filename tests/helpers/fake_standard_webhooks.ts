/**
 * A webhook receiver on 127.0.0.1 that verifies as the Standard Webhooks spec says
 * (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (seconds, within 5 minutes of the
 * receiver's clock) and `webhook-signature` (space-separated `v1,<base64>` entries, one of which
 * must be the HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the base64-decoded part of
 * the `whsec_` secret), compared in constant time. A verified delivery answers 204; one that
 * fails verification 400 and is kept apart.
 */
import { timingSafeEqual } from "node:crypto";
import { type FakeBehaviour, startFakeReceiver } from "./fake_receiver.ts";

/** A delivery the receiver got. */
interface ReceivedWebhook {
  id: string | null;
  timestamp: string | null;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A running receiver. */
interface FakeStandardWebhooks extends FakeBehaviour, AsyncDisposable {
  url: string;
  /** The secret to verify with (the one the channel's 201 showed); set it before delivering. */
  secret?: string;
  verified: ReceivedWebhook[];
  /** Deliveries refused, with why. */
  refused: { reason: string; body: string }[];
  close(): Promise<void>;
}

const TOLERANCE_S = 5 * 60;

/** The expected `v1` signature of a delivery. */
async function expected(secret: string, content: string): Promise<Uint8Array> {
  const raw = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content)));
}

/** Starts the receiver; `now` is its clock in milliseconds (the test's fake clock). */
export function startFakeStandardWebhooks(
  options: { now?: () => number } = {},
): FakeStandardWebhooks {
  const now = options.now ?? Date.now;
  const fake = startFakeReceiver(async (request) => {
    const body = await request.text();
    const id = request.headers.get("webhook-id");
    const timestamp = request.headers.get("webhook-timestamp");
    const signatures = request.headers.get("webhook-signature");
    const refuse = (reason: string) => {
      fake.refused.push({ reason, body });
      return new Response(reason, { status: 400 });
    };
    if (!fake.secret) return refuse("no secret configured");
    if (!id || !timestamp || !signatures) return refuse("missing headers");
    if (!/^\d+$/.test(timestamp) || Math.abs(now() / 1000 - Number(timestamp)) > TOLERANCE_S) {
      return refuse("timestamp outside tolerance");
    }
    const want = await expected(fake.secret, `${id}.${timestamp}.${body}`);
    const ok = signatures.split(" ").some((entry) => {
      const [version, sig] = entry.split(",", 2);
      if (version !== "v1" || !sig) return false;
      let got: Uint8Array;
      try {
        got = Uint8Array.from(atob(sig), (c) => c.charCodeAt(0));
      } catch {
        return false;
      }
      return got.length === want.length && timingSafeEqual(got, want);
    });
    if (!ok) return refuse("signature mismatch");
    fake.verified.push({ id, timestamp, body: JSON.parse(body) });
    return new Response(null, { status: 204 });
  }) as FakeStandardWebhooks;
  fake.verified = [];
  fake.refused = [];
  return fake;
}
