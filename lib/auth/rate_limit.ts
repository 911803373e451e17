/**
 * Fixed-window attempt counters in KV (shared by every instance), timed by the injected clock.
 * Password sign-in is limited per email and per client address; signup per client address.
 * Every attempt counts, successful or not, and it is counted before the password is checked,
 * so a guesser cannot spend more bcrypt time than the limit allows.
 */
import type { Clock } from "../clock.ts";
import { takeCount } from "../kv_counter.ts";

/** A limit: at most `limit` attempts per fixed window of `windowMs`. */
export interface WindowLimit {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** Password sign-ins per email address (normalised to lower case). */
export const LOGIN_PER_EMAIL: WindowLimit = {
  name: "login_email",
  limit: 10,
  windowMs: 15 * MINUTE,
};
/** Password sign-ins per client address (a household or office shares one). */
export const LOGIN_PER_ADDRESS: WindowLimit = {
  name: "login_address",
  limit: 50,
  windowMs: 15 * MINUTE,
};
/** Signup attempts (valid bodies) per client address. */
export const SIGNUP_PER_ADDRESS: WindowLimit = {
  name: "signup_address",
  limit: 10,
  windowMs: 60 * MINUTE,
};

/** The outcome of taking an attempt: allowed, or refused until the window resets. */
export type Attempt = { allowed: true } | { allowed: false; retryAfterS: number };

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
  kv: Deno.Kv,
  checks: { limit: WindowLimit; subject: string }[],
  options: { clock: Clock },
): Promise<Attempt> {
  const now = options.clock.now();
  const windows = await Promise.all(checks.map(async ({ limit, subject }) => {
    const start = Math.floor(now / limit.windowMs) * limit.windowMs;
    const key: Deno.KvKey = ["auth_rate", limit.name, await subjectKey(subject), start];
    return {
      key,
      limit: limit.limit,
      expireIn: limit.windowMs + MINUTE,
      resetsAt: start + limit.windowMs,
    };
  }));
  const counted = await takeCount(kv, windows);
  if (counted.taken) return { allowed: true };
  const resetsAt = Math.max(...counted.full.map((i) => windows[i].resetsAt));
  return { allowed: false, retryAfterS: Math.max(1, Math.ceil((resetsAt - now) / 1000)) };
}
