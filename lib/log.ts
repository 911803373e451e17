/** One structured log line; the logger adds `time`. Never put a token, password or key in one. */
export type LogEntry = Record<string, unknown>;

/** Where log lines go: stdout in production, an array in tests. */
export type Logger = (entry: LogEntry) => void;

/** Where a JSON logger's text goes. */
interface LogSink {
  /** Takes one or more whole lines, each ending in a newline. */
  write(text: string): void;
}

const encoder = new TextEncoder();

// writeSync may take only part of a large buffer (a full pipe), so write until all is out.
function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length) bytes = bytes.subarray(file.writeSync(bytes));
}

/**
 * Standard output, written once per turn of the event loop: a write per request line would
 * cost a system call each, which is most of what logging costs under load.
 */
function batchedStdout(): LogSink {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    writeAll(Deno.stdout, text);
  };
  globalThis.addEventListener("unload", () => pending.length && flush());
  return {
    write(text) {
      if (pending.push(text) === 1) setTimeout(flush, 0);
    },
  };
}

const stderr: LogSink = { write: (text) => writeAll(Deno.stderr, text) };

/** A logger writing one JSON line per entry to `sink`, errors at once to `errors`. */
export function createJsonLogger(
  options: { sink?: LogSink; errors?: LogSink } = {},
): Logger {
  const sink = options.sink ?? batchedStdout();
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
    if (entry.level === "error") errors.write(line);
    else sink.write(line);
  };
}

/** One JSON line per entry to stdout (batched per event-loop turn), errors to stderr at once. */
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
