/**
 * The details job's place in the shared external window (docs/catalog.md, "The details job"):
 * every call is a quarter call of the shared window (at most 10 of each window's 40, counted
 * in the background half, atomic across instances), and at most `budget` calls are made in a
 * run (each retry after an upstream 429 counts).
 */
import type { ExternalWindow } from "../external_window.ts";
import { Problem } from "@/lib/core/problem.ts";

/** The shared window as the job sees it, with the calls it has made. */
export interface BudgetedWindow extends ExternalWindow {
  /** Calls that took a place so far. */
  readonly calls: number;
}

/** Thrown by `acquire` once the run's budget is spent: the call is not made. */
function budgetSpent(): Problem {
  return new Problem(503, "budget_spent", "The run's call budget is spent.");
}

/** Wraps `shared` so every call is a waiting quarter call, within `budget` calls. */
export function quarterWindow(shared: ExternalWindow, options: { budget: number }): BudgetedWindow {
  let calls = 0;
  let pending = 0;
  return {
    async acquire() {
      if (calls + pending >= options.budget) throw budgetSpent();
      pending++;
      try {
        const headers = await shared.acquire({ wait: true, background: true, quarter: true });
        calls++;
        return headers;
      } finally {
        pending--;
      }
    },
    block: (until) => shared.block(until),
    peek: (o) => shared.peek(o),
    peekNow: () => shared.peekNow(),
    taken: (at) => shared.taken(at),
    get calls() {
      return calls;
    },
  };
}
