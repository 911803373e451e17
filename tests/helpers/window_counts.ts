/**
 * Calls per window of the shared external limiter (40 per aligned wall-clock second, see
 * docs/catalog.md), counted from the times the calls reached a fake.
 */

/**
 * Calls per window (keyed by epoch second), from `performance.now()` arrival times: a call
 * arriving within `transitMs` (default 50: loopback, a busy machine) after a second began may
 * have been granted by the window before, and counts there while that window has room
 * (earliest first, so if any attribution keeps every window within its limit, this one does).
 */
export function windowCounts(
  arrivals: number[],
  options: { limit?: number; transitMs?: number } = {},
): Map<number, number> {
  const { limit = 40, transitMs = 50 } = options;
  const counts = new Map<number, number>();
  for (const at of arrivals.map((a) => performance.timeOrigin + a).sort((a, b) => a - b)) {
    const second = Math.floor(at / 1000);
    const late = at - second * 1000 < transitMs && (counts.get(second - 1) ?? 0) < limit;
    const window = late ? second - 1 : second;
    counts.set(window, (counts.get(window) ?? 0) + 1);
  }
  return counts;
}
