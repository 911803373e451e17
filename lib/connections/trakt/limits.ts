/**
 * Trakt's rate limits (docs/trakt.md, "Sign-in"): 1,000 GETs per 5 minutes per token (or per
 * address without one), and writes at 1 a second per token with bursts of 10. Counted in the
 * shared KV, so every instance sees one count; time from the injected clock.
 */
import type { Clock } from "@/lib/core/clock.ts";
import { takeCount, updateKeys } from "@/lib/platform/kv/counter.ts";
import type { Kv } from "@/lib/platform/kv/kv.ts";

/** GETs per window. */
const GET_LIMIT = 1000;
/** The GET window, 5 minutes, aligned on the clock. */
const GET_PERIOD_MS = 300_000;
/** Writes a token may send at once. */
const WRITE_BURST = 10;
/** A write comes back every second. */
const WRITE_REFILL_MS = 1000;

/** Device codes one client address may ask for per minute. */
const DEVICE_CODE_LIMIT = 30;
const DEVICE_CODE_PERIOD_MS = 60_000;

/** Trakt's `X-Ratelimit` body: which limit, its period and size, and when it opens again. */
interface RateLimitState {
  name:
    | "AUTHED_API_GET_LIMIT"
    | "UNAUTHED_API_GET_LIMIT"
    | "AUTHED_API_POST_LIMIT"
    | "DEVICE_CODE_LIMIT";
  period: number;
  limit: number;
  remaining: number;
  until: string;
}

/** Allowed, or refused with the limit's state and the milliseconds until it opens. */
export type LimitAnswer =
  | { allowed: true }
  | { allowed: false; state: RateLimitState; retryAfterMs: number };

/** Counts a GET of `subject` (a token id, or `ip:<address>`) in its 5-minute window. */
export async function takeGet(
  { kv, clock }: { kv: Kv; clock: Clock },
  subject: string,
): Promise<LimitAnswer> {
  const now = clock.now();
  const start = Math.floor(now / GET_PERIOD_MS) * GET_PERIOD_MS;
  const end = start + GET_PERIOD_MS;
  const taken = await takeCount(kv, [{
    key: ["trakt_get", subject, start],
    limit: GET_LIMIT,
    expireIn: GET_PERIOD_MS + 60_000,
  }]);
  if (taken.taken) return { allowed: true };
  return {
    allowed: false,
    retryAfterMs: end - now,
    state: {
      name: subject.startsWith("ip:") ? "UNAUTHED_API_GET_LIMIT" : "AUTHED_API_GET_LIMIT",
      period: GET_PERIOD_MS / 1000,
      limit: GET_LIMIT,
      remaining: 0,
      until: new Date(end).toISOString(),
    },
  };
}

// The bucket in milliseconds of credit: a write costs one refill period, credit grows one
// millisecond a millisecond up to a burst's worth. Whole numbers, so the edges are exact.
interface Bucket {
  credit: number;
  at: number;
}

/** Takes one write of `tokenId` from its bucket (10, refilled 1 a second). */
export function takeWrite(
  { kv, clock }: { kv: Kv; clock: Clock },
  tokenId: string,
): Promise<LimitAnswer> {
  const key = ["trakt_write", tokenId];
  const full = WRITE_BURST * WRITE_REFILL_MS;
  return updateKeys<Bucket, LimitAnswer>(kv, [key], {
    decide: ([entry]) => {
      const now = clock.now();
      const last = entry.value;
      const credit = last ? Math.min(full, last.credit + Math.max(0, now - last.at)) : full;
      if (credit >= WRITE_REFILL_MS) {
        return {
          result: { allowed: true },
          // Kept until the bucket would be full again anyway.
          set: [{
            key,
            value: { credit: credit - WRITE_REFILL_MS, at: now },
            expireIn: full + 60_000,
          }],
        };
      }
      const retryAfterMs = WRITE_REFILL_MS - credit;
      return {
        result: {
          allowed: false,
          retryAfterMs,
          state: {
            name: "AUTHED_API_POST_LIMIT",
            period: WRITE_REFILL_MS / 1000,
            limit: 1,
            remaining: 0,
            until: new Date(now + retryAfterMs).toISOString(),
          },
        },
      };
    },
  });
}

/**
 * Counts a device code asked for from `address`: 30 a minute, so a script cannot fill the table
 * with codes nobody will type (a player asks for one per sign-in).
 */
export async function takeDeviceCode(
  { kv, clock }: { kv: Kv; clock: Clock },
  address: string,
): Promise<LimitAnswer> {
  const now = clock.now();
  const start = Math.floor(now / DEVICE_CODE_PERIOD_MS) * DEVICE_CODE_PERIOD_MS;
  const end = start + DEVICE_CODE_PERIOD_MS;
  const taken = await takeCount(kv, [{
    key: ["trakt_device_code", address, start],
    limit: DEVICE_CODE_LIMIT,
    expireIn: DEVICE_CODE_PERIOD_MS + 60_000,
  }]);
  if (taken.taken) return { allowed: true };
  return {
    allowed: false,
    retryAfterMs: end - now,
    state: {
      name: "DEVICE_CODE_LIMIT",
      period: DEVICE_CODE_PERIOD_MS / 1000,
      limit: DEVICE_CODE_LIMIT,
      remaining: 0,
      until: new Date(end).toISOString(),
    },
  };
}
