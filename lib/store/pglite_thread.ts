/**
 * PGlite on a thread of its own (docs/faults.md, "Background work on the embedded store"): a Web
 * Worker (./pglite_worker.ts) holds the database and runs each statement, and this side sends it
 * one call at a time and waits for its answer. Statements cost the event loop a message each way
 * instead of their whole run, so an import's batch (50-160 ms with the stats triggers) or an
 * ANALYZE no longer holds every request. A statement's error comes back with its fields (`code`,
 * `constraint`, ...), so callers tell a unique violation from a foreign-key one as before; a
 * worker that dies fails every call waiting and every later one.
 */
import type { DeadlineTimer } from "../async/deadline.ts";

/** A call to the database's thread. */
export type ThreadRequest =
  & { id: number }
  & (
    | { op: "open"; dataDir?: string; load?: ArrayBuffer; wasmModule?: WebAssembly.Module }
    | { op: "query"; sql: string; params: unknown[] }
    | { op: "exec"; sql: string }
    | { op: "upkeep" }
    | { op: "dump" }
    | { op: "close" }
  );

/** The thread's answer to the call of the same id. */
export type ThreadAnswer =
  | { id: number; ok: true; value: unknown }
  | {
    id: number;
    ok: false;
    error: {
      name: string;
      message: string;
      stack?: string;
      fields: Record<string, string | number | boolean>;
    };
  };

/** A call without its id (the thread numbers them). */
type Call = ThreadRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never : never;

/** The database's thread, as the store sees it. */
interface PgliteThread {
  /** Sends `call` (its `transfer` moved, not copied) and resolves with the thread's answer. */
  call<T = undefined>(call: Call, transfer?: Transferable[]): Promise<T>;
  /** Milliseconds so far with a call on the thread (the database at work), the current one's too. */
  workedMs(): number;
  /** Whether a call is on the thread now. */
  readonly working: boolean;
  /** Ends the thread at once; calls still waiting fail. */
  terminate(): void;
}

/**
 * A deadline timer for the store's calls that counts waiting, not the database's own work: the
 * time a statement runs on the thread holds the deadline off, as it did when statements ran on
 * the event loop's thread and no timer could fire during one. So a call still fails 503 when it
 * waits behind a transaction held open by its caller, while a long statement (seeding, an
 * account's deletion) is never cut off midway by the time it takes.
 */
export function waitingTimer(thread: PgliteThread): DeadlineTimer {
  return {
    set(fn, ms) {
      const handle: { timeout?: ReturnType<typeof setTimeout> } = {};
      const started = performance.now();
      const workedBefore = thread.workedMs();
      const arm = (wait: number) => {
        handle.timeout = setTimeout(() => {
          const waited = performance.now() - started - (thread.workedMs() - workedBefore);
          if (waited >= ms && !thread.working) fn();
          else arm(Math.max(ms - waited, MIN_REARM_MS));
        }, wait);
      };
      arm(ms);
      return handle;
    },
    clear: (handle) => clearTimeout((handle as { timeout?: number }).timeout),
  };
}

/** The shortest wait before a deadline looks again while the database works. */
const MIN_REARM_MS = 5;

function rebuilt(error: Extract<ThreadAnswer, { ok: false }>["error"]): Error {
  const rebuilt = Object.assign(new Error(error.message), error.fields);
  rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * PGlite's WebAssembly compiled once per process and handed to each thread: a worker compiling
 * its own took about half a second more to open a store (the tests open hundreds). Undefined
 * where the file is not beside PGlite's module; the thread then compiles it itself.
 */
export function pgliteWasm(): Promise<WebAssembly.Module | undefined> {
  return compiled ??= (async () => {
    try {
      const url = new URL("./pglite.wasm", import.meta.resolve("@electric-sql/pglite"));
      return await WebAssembly.compile(await Deno.readFile(url));
    } catch {
      return undefined;
    }
  })();
}

/** Starts the database's thread; `spawn` starts another worker (tests). */
export function startPgliteThread(
  options: { spawn?: () => Worker } = {},
): PgliteThread {
  const worker = options.spawn?.() ??
    new Worker(new URL("./pglite_worker.ts", import.meta.url).href, { type: "module" });
  const waiting = new Map<number, PromiseWithResolvers<unknown>>();
  let next = 0;
  // The time the thread has been at work: the sum of the spans with a call on it.
  let worked = 0;
  let since = 0;
  const settled = () => {
    if (waiting.size === 0) worked += performance.now() - since;
  };
  let ended: Error | undefined;
  const end = (error: Error) => {
    if (waiting.size > 0) worked += performance.now() - since;
    ended ??= error;
    worker.terminate();
    for (const call of waiting.values()) call.reject(ended);
    waiting.clear();
  };
  worker.onmessage = (event: MessageEvent<ThreadAnswer>) => {
    const answer = event.data;
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    settled();
    if (answer.ok) call.resolve(answer.value);
    else call.reject(rebuilt(answer.error));
  };
  // Handled here, or an uncaught error in the worker would end this process too.
  worker.onerror = (event) => {
    event.preventDefault();
    end(new Error(`the embedded store's thread died: ${event.message}`));
  };
  worker.onmessageerror = () => end(new Error("an answer of the embedded store could not be read"));
  return {
    call<T>(call: Call, transfer: Transferable[] = []) {
      if (ended) return Promise.reject(ended);
      const id = ++next;
      const answer = Promise.withResolvers<unknown>();
      if (waiting.size === 0) since = performance.now();
      waiting.set(id, answer);
      try {
        worker.postMessage({ ...call, id }, { transfer });
      } catch (error) {
        waiting.delete(id);
        settled();
        answer.reject(error);
      }
      return answer.promise as Promise<T>;
    },
    workedMs: () => worked + (waiting.size > 0 ? performance.now() - since : 0),
    get working() {
      return waiting.size > 0;
    },
    terminate: () => end(new Error("the embedded store is closed")),
  };
}
