/**
 * A bounded memo of access tokens whose signature and claims were verified, kept until their
 * `exp`. An ES256 verification costs about half a millisecond, more than the list read it
 * guards; the same token string is the same signed token, so verifying it again adds nothing.
 */
import type { Clock } from "@/lib/core/clock.ts";
import type { VerifiedToken } from "./access_token.ts";

/** The memo: `get` answers only while the token is unexpired by the clock. */
interface VerifiedTokens {
  get(token: string): VerifiedToken | undefined;
  set(token: string, verified: VerifiedToken): void;
}

/** Creates a memo of at most `max` tokens (least recently used leave first). */
export function verifiedTokens(clock: Clock, options: { max?: number } = {}): VerifiedTokens {
  const max = options.max ?? 10_000;
  const entries = new Map<string, VerifiedToken>();
  return {
    get(token) {
      const hit = entries.get(token);
      if (!hit) return undefined;
      entries.delete(token);
      // jose treats `exp <= now` as expired; so does the memo.
      if (hit.expiresAt * 1000 <= clock.now()) return undefined;
      entries.set(token, hit);
      return hit;
    },
    set(token, verified) {
      entries.delete(token);
      entries.set(token, verified);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
