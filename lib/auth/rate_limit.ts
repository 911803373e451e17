/**
 * Fixed-window attempt counters in KV (shared by every instance), timed by the injected clock.
 * An attempt is counted before the password (or admin token) is checked, so a guesser cannot
 * spend more bcrypt time than the limit allows; a limit that counts failures only gives the
 * attempt back once it succeeded (`giveBack`).
 */
import type { Clock } from "../clock.ts";
import { commitWithRetry, getWithRetry } from "../kv.ts";

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
export interface CountedWindow {
  limit: WindowLimit;
  key: Deno.KvKey;
}

/** The outcome of taking an attempt: allowed (and where it counted), or refused until reset. */
export type Attempt =
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
  kv: Deno.Kv,
  checks: { limit: WindowLimit; subject: string }[],
  options: { clock: Clock },
): Promise<Attempt> {
  const now = options.clock.now();
  const windows = await Promise.all(checks.map(async ({ limit, subject }) => {
    const start = Math.floor(now / limit.windowMs) * limit.windowMs;
    const key: Deno.KvKey = ["auth_rate", limit.name, await subjectKey(subject), start];
    return { limit, key, resetsAt: start + limit.windowMs };
  }));
  // A clash means another request counted at the same moment: read again and retry.
  for (let attempt = 0; attempt < 20; attempt++) {
    const entries = await Promise.all(windows.map((w) => getWithRetry<number>(kv, w.key)));
    const full = windows.filter((w, i) => (entries[i].value ?? 0) >= w.limit.limit);
    if (full.length) {
      const resetsAt = Math.max(...full.map((w) => w.resetsAt));
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil((resetsAt - now) / 1000)) };
    }
    const result = await commitWithRetry(() => {
      const op = kv.atomic();
      windows.forEach((w, i) => {
        op.check(entries[i]).set(w.key, (entries[i].value ?? 0) + 1, {
          expireIn: w.limit.windowMs + MINUTE,
        });
      });
      return op;
    });
    if (result.ok) {
      return { allowed: true, counted: windows.map(({ limit, key }) => ({ limit, key })) };
    }
  }
  throw new Error("attempt counter kept changing under contention");
}

/**
 * Undoes a counted attempt in the windows of `uncount` (their count goes down by one) and
 * empties those of `clear`; windows of other limits keep it.
 */
export async function giveBack(
  kv: Deno.Kv,
  attempt: { counted: CountedWindow[] },
  options: { uncount?: WindowLimit[]; clear?: WindowLimit[] },
): Promise<void> {
  const pick = (limits: WindowLimit[] = []) =>
    attempt.counted.filter((w) => limits.some((l) => l.name === w.limit.name));
  const clear = pick(options.clear);
  const uncount = pick(options.uncount);
  for (let attemptNo = 0; attemptNo < 20; attemptNo++) {
    const entries = await Promise.all(uncount.map((w) => getWithRetry<number>(kv, w.key)));
    const result = await commitWithRetry(() => {
      const op = kv.atomic();
      for (const w of clear) op.delete(w.key);
      uncount.forEach((w, i) => {
        const left = (entries[i].value ?? 0) - 1;
        op.check(entries[i]);
        if (left > 0) op.set(w.key, left, { expireIn: w.limit.windowMs + MINUTE });
        else op.delete(w.key);
      });
      return op;
    });
    if (result.ok) return;
  }
  throw new Error("attempt counter kept changing under contention");
}
