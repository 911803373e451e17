/**
 * Trying an operation again after a transient failure: the loop the KV reads and commits each
 * wrote by hand. The pause is the caller's (an injected clock's sleep, or a short random
 * wall-clock wait for a locked file), so a test never sleeps.
 */

/** How often to try, which failures are worth another try, and how to wait before one. */
interface RetryOptions {
  /** Tries in all, the first included (at least 1). */
  attempts: number;
  /** Whether a failure may pass with another try; others are thrown at once. */
  retryable: (error: unknown) => boolean;
  /** Waits before try `attempt + 1` (`attempt` is the one that just failed, from 1). */
  pause: (attempt: number) => Promise<void>;
}

/** `work`'s result from the first try that succeeds; the last failure once tries run out. */
export async function retry<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!options.retryable(error) || attempt >= options.attempts) throw error;
      await options.pause(attempt);
    }
  }
}
