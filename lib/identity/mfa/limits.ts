/**
 * What keeps a code from being guessed or replayed: a challenge takes 5 codes (each counted
 * before it is checked), 30 wrong codes per factor in 15 minutes stop all of its challenges for
 * the window, and each accepted code's step is remembered so no code (nor an earlier one) is
 * accepted twice. All in KV, shared by every instance.
 */
import type { Kv } from "@/lib/platform/kv/kv.ts";
import { takeCount, updateKeys } from "@/lib/platform/kv/counter.ts";
import type { WindowLimit } from "../auth/rate_limit.ts";
import { CHALLENGE_TTL_MS } from "./factors.ts";
import { TOTP_DRIFT_STEPS, TOTP_PERIOD_S } from "./totp.ts";

/** Wrong codes one challenge takes before it ends. */
const WRONG_CODES_PER_CHALLENGE = 5;

/** Code attempts per factor, across its challenges (a success gives its attempt back). */
export const CODES_PER_FACTOR: WindowLimit = {
  name: "mfa_factor",
  limit: 30,
  windowMs: 15 * 60_000,
};

/** A challenge's turn for one code: refused once it had its 5, `last` on the fifth. */
type CodeTurn = { allowed: false } | { allowed: true; last: boolean };

/**
 * Takes one of the challenge's 5 turns before its code is checked, in one atomic KV step (the
 * count and the limit's check together), so codes sent in parallel cannot all be checked before
 * any is counted: past the fifth, none is checked at all.
 */
export async function takeCodeTurn(kv: Kv, challengeId: string): Promise<CodeTurn> {
  const taken = await takeCount(kv, [{
    key: ["mfa_wrong", challengeId],
    limit: WRONG_CODES_PER_CHALLENGE,
    expireIn: 2 * CHALLENGE_TTL_MS,
  }]);
  if (!taken.taken) return { allowed: false };
  return { allowed: true, last: taken.counts[0] >= WRONG_CODES_PER_CHALLENGE };
}

/**
 * Spends the step of an accepted code: false when this step or a later one was already spent
 * for the factor (a replay, or an older code after a newer one).
 */
export async function spendStep(kv: Kv, factorId: string, step: number): Promise<boolean> {
  const key = ["mfa_step", factorId];
  // Only steps within the drift window are ever accepted, so the record need not outlive it.
  const keepMs = (2 * TOTP_DRIFT_STEPS + 2) * TOTP_PERIOD_S * 1000;
  return await updateKeys<number, boolean>(kv, [key], {
    decide: ([entry]) => {
      if (entry.value !== null && entry.value >= step) return { result: false };
      return { result: true, set: [{ key, value: step, expireIn: keepMs }] };
    },
  });
}
