/**
 * Idle memory (RSS) of the real server, in MB and as a ratio to a bare `Deno.serve` process
 * measured in the same run: the embedded store after a first start on a fresh DATA_DIR and
 * after a restart, and with PostgreSQL (BENCH_DATABASE_URL, LOAD_DATABASE_URL or
 * TEST_DATABASE_URL). Targets (issue 29): embedded <= 210 MB, PostgreSQL <= 120 MB. Also
 * PGlite alone with our start parameters and with PGlite's defaults, to show where it goes.
 * The RSS after load is measured by `deno task load`.
 */
import { initialiseInChild } from "@/lib/platform/store/pglite_init.ts";
import { freePort, spawnServer } from "@/tests/helpers/process.ts";
import { rssMb } from "../load/generator.ts";

const IDLE_MS = 3000;
/** Issue 29's bound on the embedded server's idle RSS (it was 150 MB in issue 19). */
const EMBEDDED_IDLE_MB = 210;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bareDeno(): Promise<number> {
  const body = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(body, '{"ok":true}');
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../load/bare.ts", import.meta.url).pathname,
      "deno",
      String(freePort()),
      body,
    ],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read();
  await pause(IDLE_MS);
  const rss = await rssMb(child.pid);
  child.kill("SIGKILL");
  await child.status;
  await reader.cancel();
  await Deno.remove(body);
  return rss;
}

/**
 * The server's RSS after it answered one health probe and idled; then it is stopped as an
 * operator stops it (SIGTERM: the store closed cleanly), or killed (`kill`: SIGKILL, so the
 * next start on the directory replays its write-ahead log).
 */
async function serverIdle(
  env: Record<string, string>,
  stop: "term" | "kill" = "term",
): Promise<number> {
  await using server = await spawnServer(env);
  if (!server.url) throw new Error(server.lines.join("\n"));
  await (await fetch(`${server.url}/api/health`)).text();
  await pause(IDLE_MS);
  const rss = await rssMb(server.pid);
  if (stop === "term") {
    server.kill("SIGTERM");
    await server.exited;
  }
  return rss;
}

async function pgliteAlone(dir: string, mode: string): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../load/pglite_alone.ts", import.meta.url).pathname, dir, mode],
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

/** Prints each figure with its target and its ratio to the bare process. */
export default async function bench(): Promise<void> {
  const base = await bareDeno();
  const show = (label: string, mb: number, target?: number) =>
    console.log(
      `${label}: ${mb.toFixed(0)} MB, ${(mb / base).toFixed(2)}x bare Deno.serve${
        target ? ` (target <= ${target} MB: ${mb <= target ? "met" : "missed"})` : ""
      }`,
    );
  show("bare Deno.serve process", base);
  const dir = await Deno.makeTempDir({ prefix: "movies-memory-" });
  try {
    show(
      "embedded, first start on a fresh DATA_DIR, idle",
      await serverIdle({ DATA_DIR: dir }),
      EMBEDDED_IDLE_MB,
    );
    show(
      "embedded, after a restart, idle",
      await serverIdle({ DATA_DIR: dir }, "kill"),
      EMBEDDED_IDLE_MB,
    );
    show(
      "embedded, after a restart that followed a kill -9 (WAL replayed), idle",
      await serverIdle({ DATA_DIR: dir }),
      EMBEDDED_IDLE_MB,
    );
    const url = Deno.env.get("BENCH_DATABASE_URL") || Deno.env.get("LOAD_DATABASE_URL") ||
      Deno.env.get("TEST_DATABASE_URL");
    if (url) {
      show(
        "PostgreSQL (DATABASE_URL), idle",
        await serverIdle({ DATA_DIR: dir, DATABASE_URL: url }),
        120,
      );
    } else console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL)");
    const alone = `${dir}/alone`;
    await initialiseInChild(alone);
    show(
      "PGlite alone, our start parameters (shared_buffers 8 MB)",
      await pgliteAlone(alone, "ours"),
    );
    show("PGlite alone, PGlite's default start parameters", await pgliteAlone(alone, "defaults"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await bench();
