/** One structured log line; the logger adds `time`. Never put a token, password or key in one. */
export type LogEntry = Record<string, unknown>;

/** Where log lines go: stdout in production, an array in tests. */
export type Logger = (entry: LogEntry) => void;

/** Writes one JSON line per entry to stdout (errors to stderr). */
export const jsonLogger: Logger = (entry) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === "error") console.error(line);
  else console.log(line);
};

/** A logger that drops everything. */
export const silentLogger: Logger = () => {};

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
