/**
 * A check-in's viewing is logged once its runtime has passed (docs/trakt.md, "Writes and
 * scrobbles"): every /trakt call with a token settles the caller's due check-in first, so a
 * client's next read (history, watched, last_activities) already shows it. One key lookup when
 * none is due; a failure is logged and never fails the request.
 */
import { describeError } from "@/lib/core/log.ts";
import type { Middleware } from "../app_env.ts";

/** Settles the caller's due check-in, after `traktEdge` has named the caller. */
export function settleCheckins(): Middleware {
  return async function settleCheckins(c, next) {
    const caller = c.var.traktUser;
    if (caller) {
      try {
        await c.var.services.traktWrites.settle(caller.userId);
      } catch (error) {
        c.var.deps.log({
          level: "warn",
          msg: "settling a Trakt check-in failed",
          error: describeError(error),
        });
      }
    }
    await next();
  };
}
