/**
 * The one atomic update every shared KV count and lease goes through (the external window,
 * the sign-in and signup limits, the recommendation quota, the locks): read the keys, decide,
 * commit with a version check on every entry read, and read again when another writer got
 * there first. Counts and leases stay exact across every instance sharing the KV.
 */
import {
  commitWithRetry,
  countOf,
  type CountOptions,
  type CountResult,
  type CountSlot,
  getWithRetry,
  type Kv,
  type KvEntryMaybe,
  type KvKey,
} from "./kv.ts";

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

/**
 * Adds one to every slot at once, or to none when any is full or the gate is closed. One
 * statement where the KV has one (`takeCounts`); else read, decide, commit. `exhausted`
 * answers when every round clashed (default: throw).
 */
export function takeCount(
  kv: Kv,
  slots: CountSlot[],
  options: CountOptions & { attempts?: number; exhausted?: () => CountResult } = {},
): Promise<CountResult> {
  if (kv.takeCounts) return kv.takeCounts(slots, { gate: options.gate });
  const { gate } = options;
  const keys = gate ? [...slots.map((s) => s.key), gate.key] : slots.map((s) => s.key);
  return updateKeys<unknown, CountResult>(kv, keys, {
    decide: (entries) => {
      const counts = slots.map((_, i) => countOf(entries[i].value));
      const closedUntil = gate ? countOf(entries[slots.length].value) : 0;
      const full = slots.flatMap((slot, i) => counts[i] >= slot.limit ? [i] : []);
      if (full.length || (gate && closedUntil > gate.now)) {
        return { result: { taken: false, full, counts, closedUntil } };
      }
      return {
        result: { taken: true, counts: counts.map((c) => c + 1), closedUntil },
        set: slots.map((slot, i) => ({
          key: slot.key,
          value: counts[i] + 1,
          expireIn: slot.expireIn,
        })),
      };
    },
    attempts: options.attempts,
    exhausted: options.exhausted,
  });
}

/** Takes one back from the count at `key` (never below zero); gives up quietly under contention. */
export function returnCount(
  kv: Kv,
  key: KvKey,
  options: { expireIn: number },
): Promise<void> {
  return updateKeys<unknown, void>(kv, [key], {
    decide: ([entry]) => {
      const used = countOf(entry.value);
      if (used <= 0) return { result: undefined };
      return { result: undefined, set: [{ key, value: used - 1, expireIn: options.expireIn }] };
    },
    exhausted: () => undefined,
  });
}

/** The count at `key` now (0 when absent). */
export async function readCount(kv: Kv, key: KvKey): Promise<number> {
  return countOf((await getWithRetry<unknown>(kv, key)).value);
}
