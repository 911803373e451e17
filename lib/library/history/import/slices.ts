/**
 * Cooperative slicing of CPU-heavy import steps (inflating, CSV parsing, grouping, the run's
 * batches): each step calls `tick()` often, and after about `sliceMs` of work the slicer gives
 * the event loop a turn, so health checks and other users' requests are answered while an
 * import is read. Given the process's `BackgroundTurns`, a tick past the slice waits for this
 * work's next turn instead (lib/core/async/background_turns.ts): every import's slices then take
 * turns, and all of them together take at most the scheduler's share of the event loop.
 */
import type { BackgroundTurns, Turn } from "@/lib/core/async/background_turns.ts";
import { everySlice } from "@/lib/core/async/every_slice.ts";

/** The longest stretch of import work between two turns of the event loop. */
const SLICE_MS = 8;

/** A budget of CPU time per slice; `tick()` yields once it is spent. */
export class Slicer {
  readonly #slice: () => Promise<void> | undefined;
  readonly #turns: BackgroundTurns | undefined;
  readonly #first: boolean;
  #turn: Turn | undefined;

  /** `first`: this work's turns come before other work's (an upload someone waits on). */
  constructor(
    sliceMs: number = SLICE_MS,
    turns?: BackgroundTurns,
    options: { first?: boolean } = {},
  ) {
    this.#slice = everySlice(sliceMs);
    this.#turns = turns;
    this.#first = options.first ?? false;
  }

  /** Resolves at once while the slice lasts, else after a turn of the event loop. */
  tick(): Promise<void> | undefined {
    if (this.#turns) return this.#nextTurn(this.#turns);
    return this.#slice();
  }

  /** Gives the turn back, when the work is done before its slice is. */
  done(): void {
    this.#turn?.end();
    this.#turn = undefined;
  }

  #nextTurn(turns: BackgroundTurns): Promise<void> | undefined {
    if (this.#turn && !this.#turn.spent) return undefined;
    this.done();
    return turns.take({ first: this.#first }).then((turn) => {
      this.#turn = turn;
    });
  }
}
