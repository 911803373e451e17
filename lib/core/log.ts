/** One structured log line; the logger adds `time`. Never put a token, password or key in one. */
export type LogEntry = Record<string, unknown>;

/** Where log lines go: stdout in production, an array in tests. */
export type Logger = (entry: LogEntry) => void;

/** Where a JSON logger's text goes. */
interface LogSink {
  /** Takes one or more whole lines, each ending in a newline. */
  write(text: string): void;
  /** Writes out whatever the sink still holds (a sink that holds nothing needs none). */
  flush?(): void;
}

/** Something text can be written to at once (standard output, a file). */
interface SyncWriter {
  writeSync(p: Uint8Array): number;
}

const encoder = new TextEncoder();

// writeSync may take only part of a large buffer (a full pipe), so write until all is out.
function writeAll(file: SyncWriter, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length) bytes = bytes.subarray(file.writeSync(bytes));
}

/** Text a buffered sink holds before it writes at once, and how long it holds the first line. */
const FLUSH_BYTES = 64 * 1024;
const FLUSH_MS = 20;

/**
 * Lines kept and written together (docs/api.md, "Request log"): once `flushBytes` of text wait,
 * `flushMs` after the first line waiting, on `flush()`, and when the process ends (`unload`,
 * which `Deno.exit` and the end of the event loop dispatch, and an uncaught error). A write per
 * request line would cost a system call each, most of what logging costs under load; the
 * request path only appends a string.
 */
export function bufferedSink(
  file: SyncWriter,
  options: {
    flushBytes?: number;
    flushMs?: number;
    /** Starts the flush timer (tests pass their own; the default never keeps the process alive). */
    schedule?: (flush: () => void, ms: number) => void;
  } = {},
): Required<LogSink> {
  const flushBytes = options.flushBytes ?? FLUSH_BYTES;
  const flushMs = options.flushMs ?? FLUSH_MS;
  const schedule = options.schedule ?? ((fn, ms) => Deno.unrefTimer(setTimeout(fn, ms)));
  let pending: string[] = [];
  let size = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    size = 0;
    writeAll(file, text);
  };
  return {
    write(text) {
      pending.push(text);
      size += text.length;
      if (size >= flushBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        schedule(() => scheduled && flush(), flushMs);
      }
    },
    flush,
  };
}

/** Standard output, buffered, written out when the process ends however it ends. */
function bufferedStdout(): Required<LogSink> {
  const sink = bufferedSink(Deno.stdout);
  for (const event of ["unload", "error", "unhandledrejection"]) {
    globalThis.addEventListener(event, () => sink.flush());
  }
  return sink;
}

const stderr: LogSink = { write: (text) => writeAll(Deno.stderr, text) };

/** A logger writing one JSON line per entry to `sink`, errors at once to `errors`. */
export function createJsonLogger(
  options: { sink?: LogSink; errors?: LogSink } = {},
): Logger {
  const sink = options.sink ?? bufferedStdout();
  const errors = options.errors ?? stderr;
  // Under load many lines share a millisecond, so its ISO text is made once.
  let ms = 0;
  let iso = "";
  return (entry) => {
    const now = Date.now();
    if (now !== ms) [ms, iso] = [now, new Date(now).toISOString()];
    // `time` first without copying the entry: splice it in front of the entry's own members.
    const body = JSON.stringify(entry);
    const line = `{"time":"${iso}"${body.length > 2 ? "," : ""}${body.slice(1)}\n`;
    if (entry.level === "error") {
      // The lines before an error leave first, so the two streams read in order.
      sink.flush?.();
      errors.write(line);
    } else sink.write(line);
  };
}

/** One JSON line per entry to stdout (buffered, `bufferedSink`), errors to stderr at once. */
export const jsonLogger: Logger = createJsonLogger();

/** A logger that keeps its lines in memory, for tests that read the log. */
export function memoryLogger(): Logger & { lines: LogEntry[] } {
  const lines: LogEntry[] = [];
  const logger = (entry: LogEntry) => {
    lines.push({ time: new Date().toISOString(), ...entry });
  };
  return Object.assign(logger, { lines });
}

/** A short, safe description of an error for a log line (message only, no stack). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
