/**
 * The real server (`deno run main.ts`) in a child process, for tests and scripts that need
 * what only a process shows: the data directory lock, kill -9, several instances, RSS.
 */

import { SERVER_V8_FLAGS } from "../../lib/platform/memory_trim.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** A server process and what it printed. */
export interface ServerProcess extends AsyncDisposable {
  child: Deno.ChildProcess;
  pid: number;
  /** The origin it listens on, once it logged `listening`. */
  url: string;
  /** Lines printed so far (stdout and stderr). */
  lines: string[];
  /** Resolves with the exit status. */
  exited: Promise<Deno.CommandStatus>;
  kill(signal?: Deno.Signal): void;
}

/** A free loopback port (bound and released; good enough for a test on one machine). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function collect(
  stream: ReadableStream<Uint8Array>,
  lines: string[],
  onLine: () => void,
  drained: () => boolean,
) {
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    if (drained()) continue;
    const text = decoder.decode(chunk, { stream: true });
    const parts = (rest + text).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      onLine();
    }
  }
  if (rest) lines.push(rest);
  onLine();
}

/**
 * Starts main.ts with `env` (PORT defaults to a free port, CATALOG_IMPORT_CRON to off).
 * Resolves once it logged `listening`, or once it exited (then `url` is empty).
 */
export async function spawnServer(
  env: Record<string, string>,
  options: {
    timeoutMs?: number;
    denoFlags?: string[];
    /**
     * After `listening`, read the output without decoding or keeping it (a load run: the
     * harness shares the server's cores, and splitting a line per request steals from them).
     */
    drainLog?: boolean;
  } = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(freePort());
  const child = new Deno.Command(Deno.execPath(), {
    // As `deno task start` runs it, with the server's V8 flags (lib/platform/memory_trim.ts).
    args: ["run", "-A", `--v8-flags=${SERVER_V8_FLAGS}`, ...(options.denoFlags ?? []), "main.ts"],
    cwd: ROOT,
    env: { CATALOG_IMPORT_CRON: "off", AVAILABILITY_CRON: "off", ...env, PORT: port },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const ready = Promise.withResolvers<string>();
  const check = () => {
    if (lines.some((line) => line.includes('"msg":"listening"'))) {
      ready.resolve(`http://127.0.0.1:${port}`);
    }
  };
  let listening = false;
  ready.promise.then(() => listening = true, () => {});
  const drained = () => Boolean(options.drainLog) && listening;
  const out = collect(child.stdout, lines, check, drained);
  const err = collect(child.stderr, lines, check, drained);
  const exited = child.status.then(async (status) => {
    await Promise.all([out, err]);
    ready.resolve("");
    return status;
  });
  const timer = setTimeout(
    () => ready.reject(new Error(`server did not start:\n${lines.join("\n")}`)),
    options.timeoutMs ?? 120_000,
  );
  let url: string;
  try {
    url = await ready.promise;
  } finally {
    clearTimeout(timer);
  }
  const kill = (signal: Deno.Signal = "SIGTERM") => {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  };
  return {
    child,
    pid: child.pid,
    url,
    lines,
    exited,
    kill,
    async [Symbol.asyncDispose]() {
      kill("SIGKILL");
      await exited;
    },
  };
}
