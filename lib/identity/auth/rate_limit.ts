/**
 * Fixed-window attempt counters in KV (shared by every instance), timed by the injected clock.
 * An attempt is counted before the password (or admin token) is checked, so a guesser cannot
 * spend more bcrypt time than the limit allows; a limit that counts failures only gives the
 * attempt back once it succeeded (`giveBack`).
 */
import type { Kv, KvKey } from "@/lib/platform/kv/kv.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { takeCount, updateKeys } from "@/lib/platform/kv/counter.ts";

/** A limit: at most `limit` attempts per fixed window of `windowMs`. */
export interface WindowLimit {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

/**
 * Failed password sign-ins per (email, client address) pair: the guesser's own lock. A success
 * from the pair clears it.
 */
export const LOGIN_PER_PAIR: WindowLimit = {
  name: "login_pair",
  limit: 10,
  windowMs: 15 * MINUTE,
};
/**
 * Failed password sign-ins per email across all addresses: high enough that one address cannot
 * lock the account, low enough to stop a guesser spread over many.
 */
export const LOGIN_PER_EMAIL: WindowLimit = {
  name: "login_email",
  limit: 100,
  windowMs: 15 * MINUTE,
};
/** Password sign-ins per client address, successful or not (a household or office shares one). */
export const LOGIN_PER_ADDRESS: WindowLimit = {
  name: "login_address",
  limit: 50,
  windowMs: 15 * MINUTE,
};
/** Wrong `x-admin-token` values per client address. */
export const ADMIN_TOKEN_PER_ADDRESS: WindowLimit = {
  name: "admin_token_address",
  limit: 20,
  windowMs: 15 * MINUTE,
};
/** Signup attempts (valid bodies) per client address. */
export const SIGNUP_PER_ADDRESS: WindowLimit = {
  name: "signup_address",
  limit: 10,
  windowMs: 60 * MINUTE,
};

/** A window an attempt was counted in (what `giveBack` undoes). */
interface CountedWindow {
  limit: WindowLimit;
  key: KvKey;
}

/** The outcome of taking an attempt: allowed (and where it counted), or refused until reset. */
type Attempt =
  | { allowed: true; counted: CountedWindow[] }
  | { allowed: false; retryAfterS: number };

// Subjects are hashed so KV never holds an email address or a client address in clear.
async function subjectKey(subject: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(subject));
  return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * Counts one attempt against every (limit, subject) pair at once; refused (and not counted)
 * when any of them is already full.
 */
export async function takeAttempt(
  kv: Kv,
  checks: { limit: WindowLimit; subject: string }[],
  options: { clock: Clock },
): Promise<Attempt> {
  const now = options.clock.now();
  const windows = await Promise.all(checks.map(async ({ limit, subject }) => {
    const start = Math.floor(now / limit.windowMs) * limit.windowMs;
    const key: KvKey = ["auth_rate", limit.name, await subjectKey(subject), start];
    return {
      rule: limit,
      key,
      limit: limit.limit,
      expireIn: limit.windowMs + MINUTE,
      resetsAt: start + limit.windowMs,
    };
  }));
  const counted = await takeCount(kv, windows);
  if (counted.taken) {
    return { allowed: true, counted: windows.map(({ rule, key }) => ({ limit: rule, key })) };
  }
  const resetsAt = Math.max(...counted.full.map((i) => windows[i].resetsAt));
  return { allowed: false, retryAfterS: Math.max(1, Math.ceil((resetsAt - now) / 1000)) };
}

/**
 * Undoes a counted attempt in the windows of `uncount` (their count goes down by one) and
 * empties those of `clear`; windows of other limits keep it.
 */
export async function giveBack(
  kv: Kv,
  attempt: { counted: CountedWindow[] },
  options: { uncount?: WindowLimit[]; clear?: WindowLimit[] },
): Promise<void> {
  const pick = (limits: WindowLimit[] = []) =>
    attempt.counted.filter((w) => limits.some((l) => l.name === w.limit.name));
  const clear = pick(options.clear);
  const uncount = pick(options.uncount);
  await updateKeys<number, void>(kv, uncount.map((w) => w.key), {
    decide: (entries) => {
      const left = uncount.map((_, i) => (entries[i].value ?? 0) - 1);
      return {
        result: undefined,
        set: uncount.flatMap((w, i) =>
          left[i] > 0 ? [{ key: w.key, value: left[i], expireIn: w.limit.windowMs + MINUTE }] : []
        ),
        delete: [
          ...clear.map((w) => w.key),
          ...uncount.flatMap((w, i) => left[i] > 0 ? [] : [w.key]),
        ],
      };
    },
  });
}
