/** Keyed work run once at a time, its promise shared by whoever asks meanwhile. */

/** Runs `fn` once per key at a time: concurrent callers of the same key share its promise. */
export function singleFlight<K, T>(
  flights: Map<K, Promise<T>>,
  key: K,
  fn: () => Promise<T>,
): Promise<T> {
  const running = flights.get(key);
  if (running) return running;
  const started = fn().finally(() => flights.delete(key));
  flights.set(key, started);
  return started;
}
