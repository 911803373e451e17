/**
 * An in-process LRU of hot movie details in front of the movies store, so a popular detail
 * costs no query. Bounded in entries; an entry answers only while its details are within the
 * 90-day freshness by the injected clock, like the stored row it came from.
 */
import type { MovieDetail } from "./types.ts";

/** Entries kept by default (a detail is about 1 KB). */
const DETAIL_CACHE_SIZE = 2000;

interface Entry {
  detail: MovieDetail;
  /** Clock time after which the entry no longer answers. */
  freshUntil: number;
}

/** A bounded least-recently-used map of details. */
export class DetailCache {
  readonly #max: number;
  readonly #entries = new Map<number, Entry>();

  constructor(max = DETAIL_CACHE_SIZE) {
    this.#max = Math.max(0, max);
  }

  /** The detail of `id` if cached and still fresh at `now`; marks it recently used. */
  get(id: number, now: number): MovieDetail | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    if (now >= entry.freshUntil) return undefined;
    this.#entries.set(id, entry);
    return entry.detail;
  }

  /** Caches `detail` until `freshUntil`, dropping the least recently used past the bound. */
  set(id: number, detail: MovieDetail, freshUntil: number): void {
    if (this.#max === 0) return;
    this.#entries.delete(id);
    this.#entries.set(id, { detail, freshUntil });
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** Forgets `id`. */
  delete(id: number): void {
    this.#entries.delete(id);
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }
}
