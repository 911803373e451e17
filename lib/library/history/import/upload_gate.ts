/**
 * How many uploads a process takes in at once (docs/history.md, "Uploads at once"; issue 43):
 * five 20 MiB uploads read side by side took the server from 412 MB to 1.5 GB, each holding its
 * bytes, its text, its parsed rows and its films at the same time. Now at most `readers` uploads
 * are read (the file's bytes to its films) at once, and at most `waiting` more wait for a place,
 * each holding only its bytes; an upload beyond those is 503 `import_unavailable` at once, before
 * its body is read, and one that waits longer than `waitMs` for a place is 503 then.
 */
import { type DeadlineTimer, withDeadline } from "@/lib/core/async/deadline.ts";
import { Problem } from "@/lib/core/problem.ts";

/** Uploads waiting for a place to be read, beside those being read. */
const WAITING = 4;
/**
 * The longest an upload waits for its place: the total an upload's body may take to arrive
 * (lib/http/middleware/body_deadline.ts), since a person waits on either.
 */
const WAIT_MS = 120_000;

function unavailable(detail: string): Problem {
  return new Problem(503, "import_unavailable", detail, { headers: { "retry-after": "30" } });
}

/** Options of the gate; the defaults are the service's. */
interface UploadGateOptions {
  /** Uploads read at once (at least 1). */
  readers?: number;
  waiting?: number;
  waitMs?: number;
  /** The wait's timer (tests move it by hand). */
  timer?: DeadlineTimer;
}

/**
 * Runs an upload's `work` once admitted (503 when `readers + waiting` are already in); `work`
 * calls `turn()` when it has its bytes, which resolves once a reading place is this upload's
 * (503 after `waitMs` of waiting). The place is given back when `work` ends.
 */
export type UploadGate = <T>(work: (turn: () => Promise<void>) => Promise<T>) => Promise<T>;

/** A gate of `readers` reading places and `waiting` waiting ones. */
export function uploadGate(options: UploadGateOptions = {}): UploadGate {
  const readers = Math.max(1, options.readers ?? 1);
  const room = readers + Math.max(0, options.waiting ?? WAITING);
  const waitMs = options.waitMs ?? WAIT_MS;
  let admitted = 0;
  let reading = 0;
  const queue: (() => void)[] = [];

  // A reading place given back goes straight to the next in the queue.
  const giveBack = () => {
    const next = queue.shift();
    if (next) next();
    else reading--;
  };

  function place(): Promise<void> {
    if (reading < readers) {
      reading++;
      return Promise.resolve();
    }
    let wake!: () => void;
    const mine = new Promise<void>((resolve) => wake = resolve);
    queue.push(wake);
    return withDeadline(mine, waitMs, {
      timer: options.timer,
      onLate: () => {
        const at = queue.indexOf(wake);
        // Woken in the same turn as the deadline: the place is this upload's after all.
        if (at < 0) return;
        queue.splice(at, 1);
        throw unavailable(
          `The server is reading other uploads; try the import again in a minute.`,
        );
      },
    });
  }

  return async (work) => {
    if (admitted >= room) {
      throw unavailable("The server is taking in other uploads; try the import again shortly.");
    }
    admitted++;
    let holds = false;
    try {
      return await work(async () => {
        if (holds) return;
        await place();
        holds = true;
      });
    } finally {
      admitted--;
      if (holds) giveBack();
    }
  };
}
