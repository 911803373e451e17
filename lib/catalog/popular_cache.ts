/**
 * The popular feed cached per page in KV for 6 hours (docs/api.md), shared by every
 * instance. Age is judged by the injected clock; KV's own expiry only collects old entries.
 */
import type { Clock } from "../core/clock.ts";
import { commitWithRetry, getWithRetry, type Kv, type KvKey } from "../platform/kv/kv.ts";
import type { PopularPage } from "./types.ts";

/** How long a popular page is served from the cache. */
export const POPULAR_TTL_MS = 6 * 60 * 60 * 1000;

interface Cached {
  page: PopularPage;
  storedAt: number;
}

const key = (page: number): KvKey => ["catalog", "popular", page];

/** The cached page if stored less than 6 hours ago, else null. */
export async function readPopular(
  kv: Kv,
  page: number,
  clock: Clock,
): Promise<PopularPage | null> {
  const entry = await getWithRetry<Cached>(kv, key(page));
  if (!entry.value) return null;
  const age = clock.now() - entry.value.storedAt;
  return age >= 0 && age < POPULAR_TTL_MS ? entry.value.page : null;
}

/** Stores a page as fetched now. */
export async function writePopular(kv: Kv, value: PopularPage, clock: Clock): Promise<void> {
  const cached: Cached = { page: value, storedAt: clock.now() };
  await commitWithRetry(() =>
    kv.atomic().set(key(value.page), cached, { expireIn: POPULAR_TTL_MS * 2 })
  );
}
