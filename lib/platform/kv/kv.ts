/**
 * The shared home of counters, windows, locks and small caches: Deno KV by default, or
 * PostgreSQL's `coordination` schema with COORDINATION=postgres (docs/coordination.md). The
 * code sees only `Kv`, the part of Deno KV it uses, which `Deno.Kv` satisfies as it is. Several
 * local processes sharing one SQLite file see `database is locked` under contention, so every
 * commit here goes through `commitWithRetry`.
 */
import { retry } from "@/lib/core/async/retry.ts";

/** A key: a list of parts (Deno KV's own key type). */
export type KvKey = Deno.KvKey;

/** An entry read, absent (`value` null, `versionstamp` null) or present. */
export type KvEntryMaybe<T> = Deno.KvEntryMaybe<T>;

/** What a commit answers: ok with the new versionstamp, or not ok when a check failed. */
export type KvCommitOutcome = Deno.KvCommitResult | Deno.KvCommitError;

/** The atomic operation the code builds: checks, then writes, committed all or nothing. */
export interface KvAtomic {
  /** Fails the commit unless each key's versionstamp is still the one given (null: absent). */
  check(...checks: Deno.AtomicCheck[]): KvAtomic;
  /** Writes `value` at `key`, removed by itself `expireIn` ms later when given. */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomic;
  /** Removes `key`. */
  delete(key: KvKey): KvAtomic;
  /** Applies everything at once if every check holds. */
  commit(): Promise<KvCommitOutcome>;
}

/** The part of Deno KV the service uses; `Deno.Kv` is one, lib/platform/coordination/pg_kv.ts another. */
export interface Kv {
  /** The entry at `key` (expired entries read as absent). */
  get<T = unknown>(key: KvKey): Promise<KvEntryMaybe<T>>;
  /** Writes `value` at `key` unconditionally. */
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): Promise<Deno.KvCommitResult>;
  /** Removes `key`. */
  delete(key: KvKey): Promise<void>;
  /** The entries whose key starts with `prefix` (not the prefix itself), in key order. */
  list<T = unknown>(selector: { prefix: KvKey }): AsyncIterable<Deno.KvEntry<T>>;
  /** A new atomic operation. */
  atomic(): KvAtomic;
  /** Closes what the KV holds open. */
  close(): void;
  /**
   * The counting step of lib/platform/kv/counter.ts `takeCount` as one atomic statement, where the
   * store has one (PostgreSQL); without it, `takeCount` reads, decides and commits.
   */
  takeCounts?(slots: CountSlot[], options: CountOptions): Promise<CountResult>;
}

/** A count to take one from: refused when it already holds `limit`. */
export interface CountSlot {
  key: KvKey;
  limit: number;
  /** KV expiry of the count, in ms; it must outlive the count's period. */
  expireIn: number;
}

/** What else a count step heeds. */
export interface CountOptions {
  /** A key holding a time (epoch ms): while it is past `now`, nothing is counted. */
  gate?: { key: KvKey; now: number };
}

/**
 * Every slot counted (`counts` after), or refused with nothing counted: `full` the indexes of
 * the slots already at their limit, `counts` as found. `closedUntil` is the gate's time (0: none).
 */
export type CountResult =
  | { taken: true; counts: number[]; closedUntil: number }
  | { taken: false; full: number[]; counts: number[]; closedUntil: number };

/** A count as stored: a number, or a KvU64 (what earlier versions wrote); 0 when absent. */
export function countOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (value instanceof Deno.KvU64) return Number(value.value);
  return 0;
}

/** Opens KV at `path`, or the platform KV when `path` is undefined (Deno Deploy). */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path) {
    const dir = path.replace(/[/\\][^/\\]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await Deno.openKv(path);
}

function isBusyFile(error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

// A short random wall-clock pause: two processes contending for the file must not retry in
// step. `attempt` is the try that failed, from 1.
function busyPause(attempt: number, spreadMs: number): Promise<void> {
  return new Promise((r) => setTimeout(r, 2 + Math.random() * spreadMs * Math.min(attempt, 5)));
}

/**
 * Runs an atomic operation built by `build`, retrying after a short random pause when the
 * local KV file is locked by another process. Returns the commit result (ok or version clash).
 */
export function commitWithRetry(
  build: () => KvAtomic,
  options: { attempts?: number } = {},
): Promise<KvCommitOutcome> {
  return retry(() => build().commit(), {
    attempts: (options.attempts ?? 50) + 1,
    retryable: isBusyFile,
    pause: (attempt) => busyPause(attempt, 10),
  });
}

/** Reads a key, retrying while the local KV file is locked. */
export function getWithRetry<T>(kv: Kv, key: KvKey): Promise<KvEntryMaybe<T>> {
  return retry(() => kv.get<T>(key), {
    attempts: 51,
    retryable: isBusyFile,
    pause: () => busyPause(1, 10),
  });
}
