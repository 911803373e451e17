/**
 * A session still to be found live. The built-in provider ends sessions (logout, a reused
 * refresh token), so a token is only good while its session is; a read can fold that check into
 * its own statement (one query instead of two, one round trip instead of two on PostgreSQL) and
 * report here what it found.
 */
import type { Problem } from "@/lib/core/problem.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import { tokenLiveSql } from "./sessions.ts";
import { unauthorized } from "./unauthorized.ts";

/** The 401 of a token whose session has ended (or whose user is gone). */
export function sessionEnded(): Problem {
  return unauthorized("The session of this access token has ended.", { invalidToken: true });
}

/** The session a token names, to be checked by the caller's statement or by its own query. */
export class PendingSession implements SessionCheck {
  #settled = false;
  readonly #query: () => Promise<boolean>;

  /** `sessionId` null: the token names no session, so only its user must still exist. */
  constructor(readonly sessionId: string | null, query: () => Promise<boolean>) {
    this.#query = query;
  }

  /** Whether the check has run. */
  get settled(): boolean {
    return this.#settled;
  }

  /** The SQL condition that the token is still good (`tokenLiveSql`), for the caller's statement. */
  liveSql(user: `$${number}`, session: `$${number}` | null): string {
    return tokenLiveSql(user, session);
  }

  /** Records what the caller's statement found; an ended session or a deleted user is a 401. */
  settle(live: boolean): void {
    this.#settled = true;
    if (!live) throw sessionEnded();
  }

  /** Checks with a query of its own, unless a statement already did. */
  async settleAlone(): Promise<void> {
    if (!this.#settled) this.settle(await this.#query());
  }
}
