/**
 * A session still to be found live. The built-in provider ends sessions (logout, a reused
 * refresh token), so a token is only good while its session is; a read can fold that check into
 * its own statement (one query instead of two, one round trip instead of two on PostgreSQL) and
 * report here what it found. An aal1 token of a user with a verified factor is no good either
 * (403 `mfa_required`, lib/identity/mfa/code_owed.ts): the same statement finds that too.
 */
import type { Problem } from "@/lib/core/problem.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import { codeRequired } from "../mfa/code_owed.ts";
import { type SessionState, tokenLiveSql } from "./sessions.ts";
import { unauthorized } from "./unauthorized.ts";

/** The 401 of a token whose session has ended (or whose user is gone). */
export function sessionEnded(): Problem {
  return unauthorized("The session of this access token has ended.", { invalidToken: true });
}

/** The session a token names, to be checked by the caller's statement or by its own query. */
export class PendingSession implements SessionCheck {
  #settled = false;
  readonly #query: () => Promise<SessionState>;
  readonly #aal1: boolean;

  /**
   * `sessionId` null: the token names no session, so only its user must still exist. `aal1`:
   * the token has no second factor, so the user must have no verified factor either.
   */
  constructor(
    readonly sessionId: string | null,
    query: () => Promise<SessionState>,
    options: { aal1: boolean },
  ) {
    this.#query = query;
    this.#aal1 = options.aal1;
  }

  /** Whether the check has run. */
  get settled(): boolean {
    return this.#settled;
  }

  /** The SQL condition that the token is still good (`tokenLiveSql`), for the caller's statement. */
  liveSql(user: `$${number}`, session: `$${number}` | null): string {
    return tokenLiveSql(user, session, { aal1: this.#aal1 });
  }

  /**
   * Records what the caller's statement found: an ended session or a deleted user is a 401,
   * null (live, but owing the second factor) a 403 `mfa_required`.
   */
  settle(live: boolean | null): void {
    this.#settled = true;
    if (live === null) throw codeRequired();
    if (!live) throw sessionEnded();
  }

  /** Checks with a query of its own, unless a statement already did. */
  async settleAlone(): Promise<void> {
    if (this.#settled) return;
    const state = await this.#query();
    this.settle(state === "live" ? true : state === "code_owed" ? null : false);
  }
}
