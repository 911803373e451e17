/**
 * The one atomic update every shared KV count and lease goes through (the external window,
 * the sign-in and signup limits, the recommendation quota, the locks): read the keys, decide,
 * commit with a version check on every entry read, and read again when another writer got
 * there first. Counts and leases stay exact across every instance sharing the KV.
 */
import { commitWithRetry, getWithRetry, type Kv, type KvEntryMaybe, type KvKey } from "./kv.ts";

/** A value to store, with KV's own expiry so abandoned counts and leases clean themselves up. */
interface KvWrite {
  key: KvKey;
  value: unknown;
  expireIn?: number;
}

/** What `decide` answers: the result, and the writes that make it true (none: nothing to commit). */
export interface KvDecision<R> {
  result: R;
  set?: KvWrite[];
  delete?: KvKey[];
}

/** The decision, how often to read again after a clash, and what to answer when that runs out. */
interface UpdateOptions<T, R> {
  /** Chooses from the entries read (in `keys` order); run again on every round. */
  decide: (entries: KvEntryMaybe<T>[]) => KvDecision<R>;
  /** Rounds of read-decide-commit; 20 unless given. */
  attempts?: number;
  /** The answer when every round clashed; without it, an error is thrown. */
  exhausted?: () => R;
}

/** Reads `keys`, lets `options.decide` choose, and commits its writes only if no key changed since. */
export async function updateKeys<T, R>(
  kv: Kv,
  keys: KvKey[],
  options: UpdateOptions<T, R>,
): Promise<R> {
  const attempts = options.attempts ?? 20;
  for (let round = 0; round < attempts; round++) {
    const entries = await Promise.all(keys.map((key) => getWithRetry<T>(kv, key)));
    const decision = options.decide(entries);
    if (!decision.set?.length && !decision.delete?.length) return decision.result;
    const result = await commitWithRetry(() => {
      const op = kv.atomic();
      for (const entry of entries) op.check(entry);
      for (const write of decision.set ?? []) {
        op.set(
          write.key,
          write.value,
          write.expireIn === undefined ? {} : { expireIn: write.expireIn },
        );
      }
      for (const key of decision.delete ?? []) op.delete(key);
      return op;
    });
    if (result.ok) return decision.result;
  }
  if (options.exhausted) return options.exhausted();
  throw new Error("KV keys kept changing under contention");
}

/** A count to take one from: refused when it already holds `limit`. */
interface CountSlot {
  key: KvKey;
  limit: number;
  /** KV expiry of the count, in ms; it must outlive the count's period. */
  expireIn: number;
}

/** Every slot counted, or the indexes of the slots that were already full (nothing counted). */
type CountResult = { taken: true; counts: number[] } | { taken: false; full: number[] };

/** Adds one to every slot at once, or to none when any is full. */
export function takeCount(kv: Kv, slots: CountSlot[]): Promise<CountResult> {
  return updateKeys<number, CountResult>(kv, slots.map((s) => s.key), {
    decide: (entries) => {
      const counts = entries.map((entry) => entry.value ?? 0);
      const full = slots.flatMap((slot, i) => counts[i] >= slot.limit ? [i] : []);
      if (full.length) return { result: { taken: false, full } };
      return {
        result: { taken: true, counts: counts.map((c) => c + 1) },
        set: slots.map((slot, i) => ({
          key: slot.key,
          value: counts[i] + 1,
          expireIn: slot.expireIn,
        })),
      };
    },
  });
}

/** Takes one back from the count at `key` (never below zero); gives up quietly under contention. */
export function returnCount(
  kv: Kv,
  key: KvKey,
  options: { expireIn: number },
): Promise<void> {
  return updateKeys<number, void>(kv, [key], {
    decide: ([entry]) => {
      const used = entry.value ?? 0;
      if (used <= 0) return { result: undefined };
      return { result: undefined, set: [{ key, value: used - 1, expireIn: options.expireIn }] };
    },
    exhausted: () => undefined,
  });
}

/** The count at `key` now (0 when absent). */
export async function readCount(kv: Kv, key: KvKey): Promise<number> {
  return (await getWithRetry<number>(kv, key)).value ?? 0;
}
