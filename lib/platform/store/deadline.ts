/**
 * The bound on a store call (docs/faults.md): a query the database does not answer within
 * the deadline fails with 503 `store_unavailable`, so a frozen or unreachable database turns
 * into a quick, retryable answer instead of a request held for as long as TCP takes to notice.
 */
import { withDeadline } from "@/lib/core/async/deadline.ts";
import { Problem } from "@/lib/core/problem.ts";

/** How long a store call may take before it fails (docs/faults.md: 5 s). */
export const STORE_TIMEOUT_MS = 5_000;

/** The problem a store that did not answer, or could not be reached, becomes. */
export function storeUnavailable(cause?: unknown): Problem {
  return new Problem(
    503,
    "store_unavailable",
    "The database did not answer in time; try again in a few seconds.",
    { headers: { "Retry-After": "5" }, cause },
  );
}

/**
 * `work`'s result, or a `store_unavailable` rejection once `ms` passed (then `onTimeout` runs,
 * e.g. to drop the connections the call is stuck on).
 */
export function storeDeadline<T>(
  work: Promise<T>,
  ms: number,
  onTimeout?: () => void,
): Promise<T> {
  return withDeadline(work, ms, {
    onLate: () => {
      onTimeout?.();
      throw storeUnavailable(new Error(`no answer from the store in ${ms} ms`));
    },
  });
}

// Server error codes meaning "not reachable now", not "your statement is wrong": a cancelled
// statement (statement_timeout), shutdown, too many connections, and class 08 (connection).
const UNAVAILABLE_SQLSTATES = new Set(["57014", "57P01", "57P02", "57P03", "53300", "53000"]);
const UNAVAILABLE_DRIVER_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);

/** Whether `error` says the database is unreachable or stopped answering (retryable). */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof Problem) return error.code === "store_unavailable";
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08")) return true;
  if (UNAVAILABLE_DRIVER_CODES.has(code)) return true;
  return error.name === "ConnectionRefused" || error.name === "ConnectionReset";
}
