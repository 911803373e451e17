/**
 * Runs the load generator in a second process: Debian's `wrk` when it is on PATH (its C client
 * leaves more of the two cores to the server), else scripts/load/client.ts. Both report
 * requests per second and p50/p99 latency in ms.
 */

/** One measurement. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx (wrk: "Non-2xx or 3xx responses"). */
  errors: number;
  tool: "wrk" | "deno";
}

async function hasWrk(): Promise<boolean> {
  try {
    const { code } = await new Deno.Command("wrk", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return code === 0 || code === 1;
  } catch {
    return false;
  }
}

const wrkPresent = Deno.env.get("LOAD_CLIENT") === "deno" ? Promise.resolve(false) : hasWrk();

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : n;
}

/** Loads `url` with `connections` for `seconds`. */
export async function load(
  url: string,
  options: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    /** One header set per connection (the Deno client only: wrk cannot bind one to one). */
    perConnection?: Record<string, string>[];
  },
): Promise<LoadResult> {
  const headers = options.headers ?? {};
  if (await wrkPresent && !options.perConnection) {
    const args = [
      "-t2",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "--timeout",
      "10s",
      "--latency",
    ];
    for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
    const out = await new Deno.Command("wrk", { args: [...args, url], stderr: "inherit" }).output();
    const text = new TextDecoder().decode(out.stdout);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
    const pct = (p: string) => {
      const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)\\b`).exec(text);
      return m ? ms(m[1], m[2]) : NaN;
    };
    const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0) +
      Number(/Socket errors:.*?timeout (\d+)/.exec(text)?.[1] ?? 0);
    return { rps, p50: pct("50"), p99: pct("99"), errors, tool: "wrk" };
  }
  const client = new URL("./client.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      client,
      url,
      String(options.connections),
      String(options.seconds),
      JSON.stringify(options.perConnection ?? headers),
    ],
    stderr: "inherit",
  }).output();
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  const errors = Object.entries(r.statuses as Record<string, number>)
    .filter(([s]) => Number(s) >= 300).reduce((n, [, c]) => n + c, 0);
  return { rps: r.rps, p50: r.p50, p99: r.p99, errors, tool: "deno" };
}

/** The resident set of process `pid` in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
