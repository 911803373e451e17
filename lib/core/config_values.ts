/** Reading one named variable of the environment lib/core/config.ts was given, or failing in one line. */

/** The environment as lib/core/config.ts reads it. */
export type Env = Record<string, string | undefined>;

/** A configuration value that stops the start. */
export class ConfigError extends Error {
  constructor(variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = "ConfigError";
  }
}

/** The trimmed value of `name`, or undefined when unset or blank. */
export function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/** `name` as an absolute http(s) URL without trailing slashes (`fallback` when unset). */
export function url(env: Env, name: string, fallback: string): string {
  const raw = value(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(name, `must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  return raw.replace(/\/+$/, "");
}

/** BODY_TIMEOUT_MS: how long a request body may take to arrive (default 10 s). */
export function bodyTimeoutMs(env: Env): number {
  const raw = value(env, "BODY_TIMEOUT_MS");
  if (raw === undefined) return 10_000;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(
      "BODY_TIMEOUT_MS",
      `must be a positive integer, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/**
 * HTTP_SERVER: which server serves the app (docs/faults.md); default `sockets`, our own server
 * on Deno's sockets. `connections`, its name until "connections" came to mean other apps talking
 * to this one (lib/connections/), is still read as `sockets`.
 */
export function httpServer(env: Env): "sockets" | "deno_serve" {
  const raw = value(env, "HTTP_SERVER") ?? "sockets";
  if (raw === "sockets" || raw === "connections") return "sockets";
  if (raw === "deno_serve") return raw;
  throw new ConfigError(
    "HTTP_SERVER",
    `must be "sockets" or "deno_serve", got ${JSON.stringify(raw)}`,
  );
}

/** PORT: 0 to 65535, default 8000. */
export function port(env: Env): number {
  const raw = value(env, "PORT");
  if (raw === undefined) return 8000;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 0 || n > 65535) {
    throw new ConfigError("PORT", `must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** `name` as a positive integer (at most 1,000,000), `fallback` when unset. */
export function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000_000) {
    throw new ConfigError(name, `must be an integer from 1 to 1000000, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

// Deno Deploy may not offer workers, and on fewer than 4 cores a worker's read takes the core
// the event loop needs (import storm on 2 cores, health p99: 295-300 ms with one, 114-164 ms
// without; BENCHMARKS.md): there the in-thread read is the default.
/** HISTORY_READ_WORKERS: uploads read at once in workers (docs/history.md). */
export function historyReadWorkers(env: Env, inThread: boolean): number {
  const raw = value(env, "HISTORY_READ_WORKERS");
  if (raw === undefined) return inThread ? 0 : 1;
  if (!/^\d$/.test(raw) || Number(raw) > 8) {
    throw new ConfigError(
      "HISTORY_READ_WORKERS",
      `must be an integer from 0 to 8, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}
