/**
 * The daily generation quota: 20 generations per user per UTC day, counted in KV so every
 * instance shares it. A generation takes its unit when it starts and gives it back when it
 * ends in 500 or 503 (docs/api.md).
 */
import type { Kv } from "../platform/kv/kv.ts";
import type { Clock } from "../core/clock.ts";
import { readCount, returnCount, takeCount } from "../platform/kv/counter.ts";
import { recommendQuotaKey } from "../platform/kv/user_keys.ts";

/** Generations a user may start per UTC day. */
export const DAILY_LIMIT = 20;

const DAY_MS = 86_400_000;

/** Where a user's quota stands now. */
export interface QuotaStatus {
  limit: number;
  used: number;
  remaining: number;
  /** Next UTC midnight, when the counter starts again. */
  resetAt: Date;
}

/** A unit taken by `consumeQuota`; `day` is kept so a refund after midnight hits the right day. */
export interface QuotaUnit {
  userId: string;
  day: string;
}

function dayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The next UTC midnight after `now` (epoch ms). */
export function nextUtcMidnight(now: number): Date {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS);
}

/** Reads a user's quota for today (by `clock`). */
export async function quotaStatus(
  kv: Kv,
  userId: string,
  options: { clock: Clock },
): Promise<QuotaStatus> {
  const now = options.clock.now();
  const used = Math.min(await readCount(kv, recommendQuotaKey(userId, dayOf(now))), DAILY_LIMIT);
  return { limit: DAILY_LIMIT, used, remaining: DAILY_LIMIT - used, resetAt: nextUtcMidnight(now) };
}

/** Takes one unit of today's quota atomically; null when the day's limit is reached. */
export async function consumeQuota(
  kv: Kv,
  userId: string,
  options: { clock: Clock },
): Promise<QuotaUnit | null> {
  const day = dayOf(options.clock.now());
  const slot = { key: recommendQuotaKey(userId, day), limit: DAILY_LIMIT, expireIn: 2 * DAY_MS };
  return (await takeCount(kv, [slot])).taken ? { userId, day } : null;
}

/** Gives a unit back (a generation that ended in 500 or 503). */
export async function refundQuota(kv: Kv, unit: QuotaUnit): Promise<void> {
  await returnCount(kv, recommendQuotaKey(unit.userId, unit.day), { expireIn: 2 * DAY_MS });
}

/** The rate-limit headers of a quota status (docs/api.md). */
export function quotaHeaders(status: QuotaStatus): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(status.limit),
    "X-RateLimit-Remaining": String(status.remaining),
    "X-RateLimit-Reset": String(Math.floor(status.resetAt.getTime() / 1000)),
  };
}
