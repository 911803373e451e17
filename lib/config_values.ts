/** Reading one named variable of the environment lib/config.ts was given, or failing in one line. */

/** The environment as lib/config.ts reads it. */
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
