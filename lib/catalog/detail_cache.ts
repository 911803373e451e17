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
  /** When it last moved to the back of the map, counted in moves. */
  moved: number;
}

/** A bounded least-recently-used map of details. */
export class DetailCache {
  readonly #max: number;
  readonly #entries = new Map<number, Entry>();
  #moves = 0;

  constructor(max = DETAIL_CACHE_SIZE) {
    this.#max = Math.max(0, max);
  }

  /**
   * The detail of `id` if cached and still fresh at `now`; marks it recently used. An entry
   * among the last quarter moved to the back stays where it is: it is far from eviction, and
   * a move (a delete and an insert) on every hit of a hot detail cost a tenth of its request.
   */
  get(id: number, now: number): MovieDetail | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (now >= entry.freshUntil) {
      this.#entries.delete(id);
      return undefined;
    }
    if (this.#moves - entry.moved >= this.#max / 4) this.#toBack(id, entry);
    return entry.detail;
  }

  /** Caches `detail` until `freshUntil`, dropping the least recently used past the bound. */
  set(id: number, detail: MovieDetail, freshUntil: number): void {
    if (this.#max === 0) return;
    this.#toBack(id, { detail, freshUntil, moved: 0 });
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  #toBack(id: number, entry: Entry): void {
    this.#entries.delete(id);
    entry.moved = ++this.#moves;
    this.#entries.set(id, entry);
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
