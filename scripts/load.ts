/**
 * `deno task load`: the real server under load from a second process (wrk, or a Deno client),
 * 64 connections over loopback, against a bare `Deno.serve` and a bare Hono app answering the
 * same JSON, and on each store: /api/health, a cached detail, GET /api/watched with 10 and
 * 1,000 movies, and a cached recommendation. Prints requests per second, p50/p99 and the
 * server's RSS before and after; the ratios are against the baselines of the same run.
 * PostgreSQL runs when LOAD_DATABASE_URL (or TEST_DATABASE_URL) is set.
 * Environment: LOAD_SECONDS (default 5) per target, LOAD_CLIENT=deno to skip wrk, LOAD_ONLY=detail
 * for the cached detail and the bare servers alone (LOAD_ROUNDS rounds of them, default 3),
 * LOAD_STORE=embedded or postgres for one store.
 */
import { DEEP_IDLE_MS } from "../lib/platform/memory_trim.ts";
import { freePort } from "../tests/helpers/process.ts";
import { load, type LoadResult, rssMb } from "./load/generator.ts";
import { scriptDatabaseUrl, startWorld, type StoreKind } from "./load/world.ts";

const SECONDS = Number(Deno.env.get("LOAD_SECONDS") ?? "5");
const CONNECTIONS = 64;
const DETAIL = "/api/movies/84892";

const rows: string[] = [];
const show = (store: string, target: string, r: LoadResult, note = "") => {
  const line = `| ${store} | ${target} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${
    r.p99.toFixed(2)
  } | ${r.errors} | ${note} |`;
  rows.push(line);
  console.log(line);
};

async function bare(kind: "deno" | "hono", bodyFile: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./load/bare.ts", import.meta.url).pathname,
      kind,
      String(port),
      bodyFile,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read(); // "listening"
  reader.releaseLock();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// LOAD_ROUNDS: rounds of the cached detail against the bare servers (default 3).
const ROUNDS = Number(Deno.env.get("LOAD_ROUNDS") ?? "3");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medianResult = (rs: LoadResult[]): LoadResult => ({
  ...rs[0],
  rps: median(rs.map((r) => r.rps)),
  p50: median(rs.map((r) => r.p50)),
  p99: median(rs.map((r) => r.p99)),
  errors: rs.reduce((n, r) => n + r.errors, 0),
});

// LOAD_ONLY=detail: the cached detail against the bare servers alone (the figure of issue 29).
const DETAIL_ONLY = Deno.env.get("LOAD_ONLY") === "detail";

async function run(kind: StoreKind) {
  // The bare servers print nothing: the server's log lines are drained unread, so the
  // harness's parsing of them takes no CPU from the two cores the server shares with it.
  await using world = await startWorld(kind, {
    users: DETAIL_ONLY ? 0 : CONNECTIONS,
    drainLog: true,
  });
  const { url, pid } = world.server;
  await pause(2000);
  const before = await rssMb(pid);
  // Warm: the detail into the service's cache, each user's recommendation generated and cached.
  const detail = await (await fetch(`${url}${DETAIL}`)).text();
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  for (const token of world.userTokens) {
    const res = await fetch(`${url}/api/recommend`, { headers: auth(token) });
    if (res.status !== 200) {
      throw new Error(`recommend answered ${res.status}: ${await res.text()}`);
    }
    await res.body?.cancel();
  }

  const bodyFile = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(bodyFile, detail);
  await using bareDeno = await bare("deno", bodyFile);
  await using bareHono = await bare("hono", bodyFile);
  const opts = (headers?: Record<string, string>) => ({
    connections: CONNECTIONS,
    seconds: SECONDS,
    headers,
  });
  // Interleaved rounds: each ratio against the baseline of its own round (a shared machine).
  const rounds: Record<string, LoadResult[]> = { deno: [], hono: [], detail: [] };
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    rounds.deno.push(await load(`${bareDeno.url}${DETAIL}`, opts()));
    rounds.hono.push(await load(`${bareHono.url}${DETAIL}`, opts()));
    rounds.detail.push(await load(`${url}${DETAIL}`, opts()));
    ratios.push(rounds.detail[i].rps / rounds.hono[i].rps);
  }
  const rss = async (p: number) => `RSS ${(await rssMb(p)).toFixed(0)} MB`;
  show(kind, "bare Deno.serve", medianResult(rounds.deno), await rss(bareDeno.pid));
  show(kind, "bare Hono", medianResult(rounds.hono), await rss(bareHono.pid));
  show(
    kind,
    "cached detail",
    medianResult(rounds.detail),
    `${median(ratios).toFixed(2)} of bare Hono (median of ${ROUNDS} rounds' ratios, ${
      ratios.map((r) => r.toFixed(2)).join(" / ")
    }; target >= 0.7)`,
  );
  await Deno.remove(bodyFile);
  if (DETAIL_ONLY) return;
  const watched = (token: string) => load(`${url}/api/watched`, opts(auth(token)));
  show(kind, "GET /api/health", await load(`${url}/api/health`, opts()));
  show(kind, "GET /api/watched (10)", await watched(world.tokens.list10));
  show(kind, "GET /api/watched (1,000)", await watched(world.tokens.list1000));
  show(
    kind,
    "cached recommend",
    await load(`${url}/api/recommend`, { ...opts(), perConnection: world.userTokens.map(auth) }),
    `${CONNECTIONS} users, one per connection (Deno client: wrk cannot bind a user to one)`,
  );
  const after = await rssMb(pid);
  // Once the server has been idle a few seconds (its ordinary idle release ran), and once it has
  // been quiet long enough for the deep one (lib/platform/memory_trim.ts, DEEP_IDLE_MS).
  await pause(3000);
  const settled = await rssMb(pid);
  await pause(DEEP_IDLE_MS);
  const quiet = await rssMb(pid);
  const health = await fetch(`${url}/api/health`);
  await health.body?.cancel();
  // Issue 29's bounds, idle then after the load (BENCHMARKS.md, "Memory").
  const target = kind === "embedded" ? [210, 300] : [120, 250];
  const line =
    `${kind}: server RSS ${before.toFixed(0)} MB idle before (target <= ${target[0]}), ` +
    `${after.toFixed(0)} MB right after the run, ${settled.toFixed(0)} MB 3 s later, ` +
    `${quiet.toFixed(0)} MB once quiet for ${DEEP_IDLE_MS / 1000 + 3} s (target <= ${
      target[1]
    }); health after: ${health.status}`;
  rows.push(line);
  console.log(line);
}

console.log(
  `# deno task load: ${CONNECTIONS} connections, ${SECONDS} s per target, ${Deno.build.target}, ${navigator.hardwareConcurrency} cores`,
);
console.log(
  "| store | target | req/s | p50 ms | p99 ms | non-2xx | note |\n|---|---|---|---|---|---|---|",
);
// LOAD_STORE=postgres (or embedded): that store alone.
const only = Deno.env.get("LOAD_STORE");
if (only !== "postgres") await run("embedded");
if (only === "embedded") console.log("postgres: skipped (LOAD_STORE=embedded)");
else if (scriptDatabaseUrl()) await run("postgres");
else console.log("postgres: skipped (set LOAD_DATABASE_URL)");
