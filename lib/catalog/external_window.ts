/**
 * The shared external window (docs/api.md and docs/catalog.md): at most 40
 * calls to the external movie database per 1-second fixed window for the whole service.
 * The count lives in KV and is taken with a versioned check-and-set, so every instance that
 * shares the KV shares the window; time comes from the injected clock. An upstream 429
 * closes the window for everyone until its Retry-After has passed.
 */
import type { Clock } from "../core/clock.ts";
import { singleFlight } from "../core/async/single_flight.ts";
import { countOf, type CountResult, getWithRetry, type Kv, type KvKey } from "../platform/kv/kv.ts";
import { takeCount, updateKeys } from "../platform/kv/counter.ts";
import { upstreamBusy, windowFull } from "./window_problems.ts";

/** Calls per window. */
export const WINDOW_LIMIT = 40;
/** The window's length. */
export const WINDOW_MS = 1000;
/** The longest a waiting caller waits for a place before 503 `upstream_busy`. */
const MAX_WAIT_MS = 5000;
/**
 * The share of each window background work (history imports and their prefetch, the catalog
 * import) may take, so a person's search or detail always finds room.
 */
export const BACKGROUND_SHARE = 0.5;
/**
 * The share of each window the details job may take (docs/catalog.md, "The details job"),
 * counted within the background share: it leaves imports room too.
 */
export const QUARTER_SHARE = 0.25;
/** An upstream Retry-After longer than this is taken as this (a guard against a garbled header). */
const MAX_BLOCK_MS = 60 * 60 * 1000;

/** X-RateLimit-Limit, -Remaining and -Reset (epoch seconds of the window's end). */
export type WindowHeaders = Record<string, string>;

/** The shared window every external call takes a place in. */
export interface ExternalWindow {
  /**
   * Takes a place in the current window. Full: `wait: false` throws 429 `rate_limited` at
   * once; `wait: true` sleeps until the window reopens, at most 5 s, then throws 503
   * `upstream_busy`. `background` callers take at most half of each window, `quarter` callers
   * (background too) at most a quarter. Every wait ends within its bound, however slow KV or
   * the event loop is. Returns the headers after taking the place.
   */
  acquire(
    options: { wait: boolean; background?: boolean; quarter?: boolean },
  ): Promise<WindowHeaders>;
  /** Keeps the window closed until `untilMs` (an upstream 429), for every instance. */
  block(untilMs: number): Promise<void>;
  /**
   * The headers now, taking nothing (answers served from a cache). `fresh`: read KV even while
   * this instance's last look would do (an operator's report, where another instance's places
   * must show).
   */
  peek(options?: { fresh?: boolean }): Promise<WindowHeaders>;
  /** The headers peek() would answer, when known without a KV read; else undefined. */
  peekNow(): WindowHeaders | undefined;
  /** Places taken in the window holding `atMs`, read from KV (checks and reports, not the hot path). */
  taken(atMs: number): Promise<number>;
}

/** Options of the window; the defaults are the service's limits. */
interface ExternalWindowOptions {
  clock: Clock;
  limit?: number;
  windowMs?: number;
  maxWaitMs?: number;
  /** The KV key prefix (one window per prefix). */
  prefix?: KvKey;
}

interface Snapshot {
  windowStart: number;
  count: number;
  blockedUntil: number;
  /** Clock time the snapshot was read or written. */
  at: number;
}

/** Which share of the window a call also counts in (a quarter call counts in both). */
type Share = "none" | "background" | "quarter";

// What a counting step answers when another caller committed first (compared by identity).
const CLASHED: CountResult = { taken: false, full: [], counts: [], closedUntil: 0 };

// peek() trusts what this instance last saw for this long, so a cached answer costs no KV read.
const PEEK_MEMO_MS = 250;
// Past this age a cached answer still trusts the memo, and starts one read of KV beside it: under
// steady traffic the memo never lapses, so no cached answer waits on KV (measured, the lapses
// held a quarter of the cached detail's throughput, every in-flight request waiting on a read).
const REFRESH_AFTER_MS = 100;

/** Builds the window over `kv`. */
export function createExternalWindow(
  kv: Kv,
  options: ExternalWindowOptions,
): ExternalWindow {
  const { clock } = options;
  const limit = options.limit ?? WINDOW_LIMIT;
  const windowMs = options.windowMs ?? WINDOW_MS;
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const prefix = options.prefix ?? ["limits", "external"];
  const blockedKey: KvKey = [...prefix, "blocked_until"];
  let memo: Snapshot | undefined;
  // The last headers peek() built, reused while they would come out the same.
  let peeked: { memo: Snapshot; headers: WindowHeaders } | undefined;
  // The reads of KV in flight for cached answers (peek() without `fresh`, and peekNow's
  // refresh), by window start, so a burst of them costs one read, not one each.
  const looks = new Map<number, Promise<Snapshot>>();

  const startOf = (now: number) => Math.floor(now / windowMs) * windowMs;
  const countKey = (start: number): KvKey => [...prefix, "window", start];
  const backgroundKey = (start: number): KvKey => [...prefix, "background", start];
  const backgroundLimit = Math.max(1, Math.floor(limit * BACKGROUND_SHARE));
  const quarterKey = (start: number): KvKey => [...prefix, "quarter", start];
  const quarterLimit = Math.max(1, Math.floor(limit * QUARTER_SHARE));

  function headersOf(s: Snapshot): WindowHeaders {
    const blocked = s.blockedUntil > s.at;
    const reset = blocked ? Math.max(s.blockedUntil, s.windowStart + windowMs) : s.windowStart +
      windowMs;
    return {
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Remaining": String(blocked ? 0 : Math.max(0, limit - s.count)),
      "X-RateLimit-Reset": String(Math.ceil(reset / 1000)),
    };
  }

  // The window as KV has it at `now`; it becomes the memo unless a place taken meanwhile left
  // a newer one, which a read begun before it must not undo.
  async function look(now: number): Promise<Snapshot> {
    const windowStart = startOf(now);
    const [count, blocked] = await Promise.all([
      getWithRetry<unknown>(kv, countKey(windowStart)),
      getWithRetry<number>(kv, blockedKey),
    ]);
    const seen = {
      windowStart,
      count: countOf(count.value),
      blockedUntil: blocked.value ?? 0,
      at: now,
    };
    if (!memo || memo.at <= now) memo = seen;
    return seen;
  }

  // The read in flight for this window, or a new one that cached answers share.
  const sharedLook = (now: number) => singleFlight(looks, startOf(now), () => look(now));

  // What one caller saw: the snapshot becomes the memo only once the outcome is known.
  type Attempt = { ok: true; snapshot: Snapshot } | {
    ok: false;
    reopenAt: number;
    snapshot: Snapshot;
  };

  // One counting step; null on a clash (another caller took a place or closed the window
  // first), so the caller reads again with a fresh clock. A background call also counts in the
  // window's background share, and a quarter call in the quarter share too, checked and taken
  // in the same atomic step; the "closed until" of an upstream 429 is its gate. On PostgreSQL
  // the step is one statement and never clashes.
  async function takeRound(now: number, start: number, share: Share) {
    const expireIn = windowMs * 10 + 60_000;
    const slots = [{ key: countKey(start), limit, expireIn }];
    if (share !== "none") {
      slots.push({ key: backgroundKey(start), limit: backgroundLimit, expireIn });
    }
    if (share === "quarter") slots.push({ key: quarterKey(start), limit: quarterLimit, expireIn });
    const step = await takeCount(kv, slots, {
      gate: { key: blockedKey, now },
      attempts: 1,
      exhausted: () => CLASHED,
    });
    if (step === CLASHED) return null;
    const { closedUntil: blockedUntil } = step;
    const snapshot = { windowStart: start, count: step.counts[0], blockedUntil, at: now };
    if (step.taken) return { ok: true, snapshot } satisfies Attempt;
    const reopenAt = blockedUntil > now ? blockedUntil : start + windowMs;
    return { ok: false, reopenAt, snapshot } satisfies Attempt;
  }

  // Rounds until one decides, or null once `deadline` has passed: a KV round trip slower than
  // a window would otherwise give up its late place and go round forever.
  async function tryTake(deadline: number, share: Share): Promise<Attempt | null> {
    for (;;) {
      const now = clock.now();
      if (now >= deadline) return null;
      const start = startOf(now);
      const attempt = await takeRound(now, start, share);
      if (!attempt) continue;
      // A slow KV can finish the commit after the window ended; the call would then leave in
      // the next window uncounted there, so that place is given up and one taken in the new one.
      if (attempt.ok && clock.now() >= start + windowMs) continue;
      memo = attempt.snapshot;
      return attempt;
    }
  }

  function retryAfter(reopenAt: number, now: number): string {
    return String(Math.max(1, Math.ceil((reopenAt - now) / 1000)));
  }

  // The memo's headers while they still hold: a cached answer reads no KV and awaits nothing.
  function peekNow(): WindowHeaders | undefined {
    const now = clock.now();
    if (!memo || now - memo.at >= PEEK_MEMO_MS) return undefined;
    const start = startOf(now);
    if (memo.windowStart !== start) {
      // A window opened since the last look (never one gone back to): none of its places were
      // taken when it opened, and what other instances took since is unseen, as within a window,
      // for less than the memo's 250 ms.
      if (memo.windowStart > start) return undefined;
      memo = { ...memo, windowStart: start, count: 0 };
    }
    if (now - memo.at >= REFRESH_AFTER_MS && looks.size === 0) {
      // Nobody waits on it: a failed read only lets the memo lapse, and the next peek() reads.
      sharedLook(now).catch(() => {});
    }
    if (peeked?.memo === memo && memo.blockedUntil <= memo.at) return peeked.headers;
    const headers = headersOf({ ...memo, at: now });
    peeked = { memo, headers };
    return headers;
  }

  return {
    async acquire({ wait, background = false, quarter = false }) {
      const share: Share = quarter ? "quarter" : background ? "background" : "none";
      const began = clock.now();
      // A search that cannot have its place now answers 429 now: one window's worth of rounds.
      const deadline = began + (wait ? maxWaitMs : windowMs);
      for (;;) {
        const attempt = await tryTake(deadline, share);
        const now = clock.now();
        if (!attempt) {
          const headers = {
            ...headersOf({ windowStart: startOf(now), count: limit, blockedUntil: 0, at: now }),
            "Retry-After": "1",
          };
          throw wait ? upstreamBusy(headers) : windowFull(headers);
        }
        if (attempt.ok) return headersOf(attempt.snapshot);
        const headers = {
          ...headersOf(attempt.snapshot),
          "Retry-After": retryAfter(attempt.reopenAt, now),
        };
        if (!wait) throw windowFull(headers);
        if (attempt.reopenAt > deadline) throw upstreamBusy(headers);
        await clock.sleep(attempt.reopenAt - now);
      }
    },

    async block(untilMs) {
      const now = clock.now();
      const until = Math.min(untilMs, now + MAX_BLOCK_MS);
      const expireIn = Math.max(0, until - now) + 60_000;
      await updateKeys<number, void>(kv, [blockedKey], {
        decide: ([current]) => {
          if ((current.value ?? 0) >= until) return { result: undefined };
          return { result: undefined, set: [{ key: blockedKey, value: until, expireIn }] };
        },
        exhausted: () => undefined,
      });
      memo = undefined;
    },

    peekNow,

    async taken(atMs) {
      return countOf((await getWithRetry<unknown>(kv, countKey(startOf(atMs)))).value);
    },

    peek(options = {}) {
      if (options.fresh) return look(clock.now()).then(headersOf);
      const known = peekNow();
      if (known) return Promise.resolve(known);
      return sharedLook(clock.now()).then(headersOf);
    },
  };
}

/**
 * When an upstream 429 lets the window reopen: after `Retry-After` (seconds or an HTTP date),
 * or at the next window when there is none.
 */
export function reopenAfter429(
  retryAfterHeader: string | null,
  options: { now: number; windowMs?: number },
): number {
  const { now } = options;
  const windowMs = options.windowMs ?? WINDOW_MS;
  const next = Math.floor(now / windowMs) * windowMs + windowMs;
  const raw = retryAfterHeader?.trim();
  if (!raw) return next;
  if (/^\d+$/.test(raw)) return Math.max(next, now + Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? next : Math.max(next, date);
}
