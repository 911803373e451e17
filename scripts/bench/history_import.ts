/**
 * The history import (issue 15), two figures:
 * - window use: 1,000 IMDb rows none of which is in the movies store, each matched by a search
 *   against the fake TMDB answering in 50 ms, as a fraction of the shared 40-calls-per-second
 *   window (target >= 0.95): the mean searches per wall-clock window over every window but the
 *   last, and the whole run's rate (1,000 / seconds / 40). The baseline of the same run: 1,000
 *   bare catalog searches, 8 at a time, through the same window, fake and machine load. With
 *   TEST_DATABASE_URL the import runs on PostgreSQL too: the embedded database works on the
 *   event loop's thread, so on a busy machine its queries delay the searches' turns.
 * - memory: the server's peak resident memory (VmHWM, which includes the embedded database)
 *   while it takes a 20 MiB Trakt export (about 90,000 movies named by TMDB id, no searches),
 *   measured in a fresh process whose peak is reset just before the upload, against the
 *   resident memory at that moment; with the time to the 202, the event loop's longest stall
 *   during the whole run, and the times of health checks asked every 100 ms meanwhile (target:
 *   every one under 100 ms).
 * - reading: the 20 MiB export's reading step as it was before issue 24's JSON reader (the
 *   baseline, in the same process), in slices on the main thread, and in a worker (what
 *   `POST /api/import` does unless HISTORY_READ_WORKERS=0): time, longest stall, peak memory.
 * `--memory` and `--reading` run one part alone.
 */
import { createCatalogService } from "@/lib/catalog/mod.ts";
import { systemClock } from "@/lib/core/clock.ts";
import { WINDOW_LIMIT } from "@/lib/catalog/external_window.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";
import { csvText } from "@/tests/helpers/history_files.ts";
import { traktExport } from "@/tests/helpers/heavy_history_files.ts";
import { parseHistoryFile } from "@/lib/library/history/import/parse.ts";
import { offThreadReader } from "@/lib/library/history/import/read_off_thread.ts";
import { isTraktExport, traktRows } from "@/lib/library/history/import/trakt.ts";
import { type CatalogMovie, serveCatalog } from "@/tests/helpers/history_import_world.ts";
import { type Engine, TEST_DATABASE_URL } from "@/tests/helpers/store.ts";
import { createUser } from "@/tests/helpers/users.ts";

const LATENCY_MS = 50;
const MIB = 1024 * 1024;

async function topOfSecond(): Promise<void> {
  while (Date.now() % 1000 > 20) {
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
  }
}

function status(field: string): number {
  const text = Deno.readTextFileSync("/proc/self/status");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
}

type App = Awaited<ReturnType<typeof testApp>>;

async function upload(
  t: App,
  headers: Record<string, string>,
  file: Uint8Array,
  onStarted: () => void = () => {},
) {
  const res = await t.request("/api/import", {
    method: "POST",
    headers: { ...headers, "content-type": "application/octet-stream" },
    body: file as Uint8Array<ArrayBuffer>,
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  const { importId } = await res.json();
  onStarted();
  await t.services.historyImport.idle();
  return await (await t.request(`/api/import/${importId}`, { headers })).json();
}

/** Searches per wall-clock window as the fake saw them: the full windows' mean, and all. */
function windows(at: number[]) {
  const perWindow = new Map<number, number>();
  for (const t of at) {
    const second = Math.floor((performance.timeOrigin + t) / 1000);
    perWindow.set(second, (perWindow.get(second) ?? 0) + 1);
  }
  const first = Math.min(...perWindow.keys());
  const last = Math.max(...perWindow.keys());
  const counts = Array.from({ length: last - first + 1 }, (_, i) => perWindow.get(first + i) ?? 0);
  const full = counts.slice(0, -1);
  return { fraction: full.reduce((a, b) => a + b, 0) / full.length / WINDOW_LIMIT, counts };
}

async function windowUse(rows: number, how: "import" | "bare searches", engine?: Engine) {
  await using fake = await startFakeTmdb({ latencyMs: LATENCY_MS });
  // Titles of this run only: a PostgreSQL store keeps the movies an earlier run stored.
  const tag = crypto.randomUUID().slice(0, 8);
  const movies: CatalogMovie[] = Array.from({ length: rows }, (_, i) => ({
    id: 400_000 + i,
    title: `Bench Film ${tag} ${String(i).padStart(5, "0")}`,
    release_date: "2011-11-11",
  }));
  serveCatalog(fake, movies);
  await using t = await testApp({ env: tmdbEnv(fake), clock: systemClock, engine, record: false });
  const user = await createUser(t.deps);
  const file = new TextEncoder().encode(csvText(
    ["Const", "Your Rating", "Date Rated", "Title", "Title Type", "Year"],
    movies.map((m, i) => [`tt${i}`, 7, "2023-01-01", m.title, "Movie", 2011]),
  ));
  await topOfSecond();
  const started = performance.now();
  if (how === "import") {
    const run = await upload(t, user.headers, file);
    if (run.status !== "succeeded" || run.counts.added !== rows) {
      throw new Error(`the run did not succeed cleanly: ${JSON.stringify(run.counts)}`);
    }
  } else {
    const catalog = createCatalogService(t.deps);
    const queue = [...movies];
    const worker = async () => {
      for (let m = queue.shift(); m; m = queue.shift()) {
        await catalog.search(m.title, { year: 2011, wait: true });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  }
  const seconds = (performance.now() - started) / 1000;
  const searches = fake.requests.filter((r) => r.path === "/search/movie").map((r) => r.at);
  const { fraction, counts } = windows(searches);
  console.log(
    `${how} (${engine ?? "embedded"}): ${rows} searches (${LATENCY_MS} ms latency) at ${
      fraction.toFixed(3)
    } of the ` +
      `window in full windows, ${(rows / seconds / WINDOW_LIMIT).toFixed(3)} over the whole ` +
      `${seconds.toFixed(2)} s; per window [${counts.join(", ")}]`,
  );
  return fraction;
}

// The reading step of a 20 MiB Trakt export, the way it was before issue 24's JSON reader
// (one decode, one JSON.parse, one loop over the entries), in slices on this thread
// (parseHistoryFile: decoded, read and turned into rows in slices), and in a worker (the rows
// sent back 5,000 a message): time, the event loop's longest stall (a 10 ms probe) and the peak
// resident memory above the start of the step (the worker's included: one process).
async function readingStep(how: "before" | "after" | "worker", file: Uint8Array) {
  (globalThis as { gc?: () => void }).gc?.();
  Deno.writeTextFileSync("/proc/self/clear_refs", "5");
  const before = status("VmRSS");
  let last = performance.now();
  let stall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  let rows: number;
  if (how === "before") {
    await new Promise((r) => setTimeout(r, 0));
    const json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(file));
    if (!isTraktExport(json)) throw new Error("not a Trakt export");
    rows = (await traktRows(json)).rows.length;
  } else if (how === "after") {
    rows = (await parseHistoryFile(file)).rows.length;
  } else {
    rows = (await offThreadReader()(file.slice())).rows.length;
  }
  const ms = performance.now() - started;
  stall = Math.max(stall, performance.now() - last);
  clearInterval(probe);
  const peak = status("VmHWM") - before;
  console.log(
    `reading ${how}: ${rows} rows in ${(ms / 1000).toFixed(2)} s, the longest stall ` +
      `${stall.toFixed(0)} ms, peak RSS +${(peak / MIB).toFixed(0)} MiB`,
  );
  return { ms, stall, peak };
}

async function reading() {
  const file = traktExport(20 * MIB);
  const before = await readingStep("before", file);
  const after = await readingStep("after", file);
  const worker = await readingStep("worker", file);
  console.log(
    `in a worker / in slices: time ${(worker.ms / after.ms).toFixed(2)}x, the main thread's ` +
      `longest stall ${(worker.stall / after.stall).toFixed(3)}x, peak memory ${
        (worker.peak / after.peak).toFixed(2)
      }x`,
  );
  console.log(
    `reading a ${(file.length / MIB).toFixed(2)} MiB Trakt export, after / before: time ` +
      `${(after.ms / before.ms).toFixed(2)}x, longest stall ${
        (after.stall / before.stall).toFixed(3)
      }x, ` +
      `peak memory ${(after.peak / before.peak).toFixed(2)}x`,
  );
}

async function peakMemory() {
  await using fake = await startFakeTmdb();
  // Not recorded: the tests' contract recorder compiles its validator on the first answer, on
  // this thread, and that 250 ms showed as the upload's stall.
  await using t = await testApp({ env: tmdbEnv(fake), clock: systemClock, record: false });
  const user = await createUser(t.deps);
  const file = traktExport(20 * MIB);
  // The movies are in the store already, so the run fetches no details afterwards.
  await t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, genres)
     select g, 'Trakt Film ' || g, 'Trakt Film ' || g, 2000, '{}' from generate_series(1, $1) g
     on conflict do nothing`,
    [Math.ceil(file.length / 200)],
  );
  // A server has answered health long before anyone imports; the first check of a process reads
  // the migrations from disk, so it is asked once before the upload, outside the figures.
  await (await t.request("/api/health")).body?.cancel();
  // Resets VmHWM to the resident memory now (Linux clear_refs).
  Deno.writeTextFileSync("/proc/self/clear_refs", "5");
  const before = status("VmRSS");
  // The event loop's longest stall while the file is taken: what a health check would wait.
  let last = performance.now();
  let stall = 0;
  let stallAt = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    if (now - last > stall) [stall, stallAt] = [now - last, now - started];
    last = now;
  }, 10);
  // And what a health check did wait: one every 100 ms through the app, as a load balancer asks.
  const health: number[] = [];
  let asking = true;
  const asks = (async () => {
    while (asking) {
      const at = performance.now();
      const res = await t.request("/api/health");
      await res.body?.cancel();
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      health.push(performance.now() - at);
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - at))));
    }
  })();
  const started = performance.now();
  let accepted = 0;
  const run = await upload(t, user.headers, file, () => accepted = performance.now() - started);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(probe);
  asking = false;
  await asks;
  health.sort((a, b) => a - b);
  const at = (p: number) => health[Math.min(health.length - 1, Math.ceil(health.length * p) - 1)];
  const peak = status("VmHWM");
  console.log(
    `${(file.length / MIB).toFixed(2)} MiB Trakt export, ${run.counts.rows} movies, ` +
      `${run.status} in ${seconds.toFixed(1)} s: peak RSS ${(peak / MIB).toFixed(0)} MiB against ` +
      `${(before / MIB).toFixed(0)} MiB just before the upload (${(peak / before).toFixed(2)}x; ` +
      `+${((peak - before) / MIB).toFixed(0)} MiB, ${
        ((peak - before) / file.length).toFixed(1)
      }x ` +
      `the file); 202 after ${(accepted / 1000).toFixed(1)} s; the event loop's longest stall ` +
      `${stall.toFixed(0)} ms, ending ${(stallAt / 1000).toFixed(1)} s after the upload began`,
  );
  console.log(
    `health every 100 ms during it: ${health.length} answers, p50 ${at(0.5).toFixed(1)} ms, ` +
      `p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms; ` +
      `${health.filter((ms) => ms >= 100).length} at 100 ms or more`,
  );
}

/**
 * Prints the window use against its baseline (on PostgreSQL too with TEST_DATABASE_URL), then
 * the memory figure from a fresh process.
 */
export default async function bench(): Promise<void> {
  const bare = await windowUse(1000, "bare searches");
  const imported = await windowUse(1000, "import");
  console.log(`import / bare searches: ${(imported / bare).toFixed(3)}`);
  if (TEST_DATABASE_URL) await windowUse(1000, "import", "postgres");
  for (const mode of ["--reading", "--memory"]) {
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname, mode],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!child.success) throw new Error(`the ${mode} measurement failed`);
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--memory")) await peakMemory();
  else if (Deno.args.includes("--reading")) await reading();
  else await bench();
}
