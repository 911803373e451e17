/**
 * Reading a history file in a Web Worker (docs/history.md, "Reading in a worker"), so the
 * parsing of a 20 MiB file never takes the event loop that answers everyone else. A worker per
 * read, ended after it (the file and its rows live only as long as the read); at most `readers`
 * reads at once, the others waiting in order (one by default: the main thread needs a core of
 * its own); and a deadline on the wait and the read together, after which the worker is ended
 * and the upload answered 503 `import_unavailable`. A Problem of the read comes back as the
 * same Problem; any other failure, or a worker that dies, is a 500.
 */
import { limiter } from "@/lib/core/async/limiter.ts";
import { type DeadlineTimer, withDeadline } from "@/lib/core/async/deadline.ts";
import { internalError, Problem } from "@/lib/core/problem.ts";
import type { ReadHistoryFile } from "./parse.ts";
import { problemFrom, type ReadAnswer, type ReadRequest } from "./read_messages.ts";
import type { ImportRow, ParsedFile } from "./rows.ts";

/** How long a read may take, its wait for a place included. */
const READ_DEADLINE_MS = 60_000;

/** Options of the off-thread reader (tests change them). */
interface OffThreadOptions {
  /** Reads at once (default 1). */
  readers?: number;
  deadlineMs?: number;
  /** The deadline's timer (tests move it by hand). */
  timer?: DeadlineTimer;
  /** Starts a read worker (tests start ones that fail). */
  spawn?: () => Worker;
}

const spawnReadWorker = () =>
  new Worker(new URL("./read_worker.ts", import.meta.url).href, { type: "module" });

function tooSlow(ms: number): Problem {
  return new Problem(
    503,
    "import_unavailable",
    `The file could not be read within ${ms / 1000} s; try the import again.`,
    { headers: { "retry-after": "30" } },
  );
}

function failure(message: string, stack?: string, name = "Error"): Error {
  const error = new Error(message);
  error.name = name;
  if (stack) error.stack = stack;
  return error;
}

// One read in one worker, which is ended whatever the outcome (or once `signal` aborts).
function readInWorker(
  spawn: () => Worker,
  request: ReadRequest,
  signal: AbortSignal,
): Promise<ParsedFile> {
  return new Promise((resolve, reject) => {
    const worker = spawn();
    const rows: ImportRow[] = [];
    let settled = false;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      signal.removeEventListener("abort", onAbort);
      settle();
    };
    const fail = (error: Error) => end(() => reject(internalError(error)));
    const onAbort = () => end(() => reject(signal.reason));
    signal.addEventListener("abort", onAbort);
    worker.onmessage = (event: MessageEvent<ReadAnswer>) => {
      if (settled) return;
      const answer = event.data;
      if (answer.type === "rows") {
        // A chunk at a time: no spread of a large array into a call.
        for (const row of answer.rows) rows.push(row);
      } else if (answer.type === "done") {
        const { format, skipped, lists } = answer;
        end(() => resolve(lists ? { format, rows, skipped, lists } : { format, rows, skipped }));
      } else if (answer.type === "problem") end(() => reject(problemFrom(answer)));
      else fail(failure(`the read worker failed: ${answer.message}`, answer.stack, answer.name));
    };
    // Handled here, or an uncaught error in the worker would end this process too.
    worker.onerror = (event) => {
      event.preventDefault();
      fail(failure(`the read worker died: ${event.message}`));
    };
    worker.onmessageerror = () => fail(failure("a message of the read worker could not be read"));
    try {
      // Transferred, not copied: the caller's bytes are empty from here on.
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    } catch (error) {
      fail(error instanceof Error ? error : failure(String(error)));
    }
  });
}

/**
 * A reader with `parseHistoryFile`'s answers that reads in a worker; the bytes it is given are
 * transferred to the worker (empty afterwards). Its reads share one limit of `readers` at once.
 */
export function offThreadReader(options: OffThreadOptions = {}): ReadHistoryFile {
  const gate = limiter(options.readers ?? 1);
  const deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  const spawn = options.spawn ?? spawnReadWorker;
  return (bytes, parse = {}) => {
    const abort = new AbortController();
    const request: ReadRequest = { bytes, options: { zip: parse.zip, maxRows: parse.maxRows } };
    const read = gate(() =>
      abort.signal.aborted
        ? Promise.reject(abort.signal.reason)
        : readInWorker(spawn, request, abort.signal)
    );
    return withDeadline(read, deadlineMs, {
      timer: options.timer,
      onLate: () => {
        const late = tooSlow(deadlineMs);
        abort.abort(late);
        throw late;
      },
    });
  };
}
