/**
 * Reading an uploaded history file in a Web Worker (docs/history.md, "Reading in a worker"):
 * the worker's rows are exactly the in-thread read's, its 400s the same Problems, a worker that
 * fails or hangs ends in a clean 500 or 503 (the worker ended), reads wait their turn, and with
 * HISTORY_READ_WORKERS=0 the file is read on the main thread as before.
 */
import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import type { DeadlineTimer } from "../lib/core/async/deadline.ts";
import { loadConfig } from "../lib/core/config.ts";
import { parseHistoryFile } from "../lib/library/history/import/parse.ts";
import { answerRead } from "../lib/library/history/import/read_in_worker.ts";
import {
  problemAnswer,
  problemFrom,
  type ReadAnswer,
  type ReadRequest,
} from "../lib/library/history/import/read_messages.ts";
import { offThreadReader } from "../lib/library/history/import/read_off_thread.ts";
import type { ParsedFile } from "../lib/library/history/import/rows.ts";
import { createHistoryImportService } from "../lib/library/history/import/service.ts";
import { Problem } from "../lib/core/problem.ts";
import {
  longTitleCsv,
  manyRowsZip,
  traktExport,
  unmatchedCsv,
  watchedCsv,
  zipBomb,
} from "./helpers/heavy_history_files.ts";
import {
  bytesOf,
  csvText,
  jsonBytes,
  letterboxdCsvs,
  letterboxdZip,
  traktFiles,
} from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";

const MIB = 1024 * 1024;

/** A deadline timer moved by hand: `fire(i)` runs the i-th deadline set. */
function handTimer(): DeadlineTimer & { fire(i: number): void; count(): number } {
  const timers: { fn: () => void; cleared: boolean }[] = [];
  return {
    set(fn) {
      timers.push({ fn, cleared: false });
      return timers.length - 1;
    },
    clear(handle) {
      timers[handle as number].cleared = true;
    },
    fire(i) {
      if (!timers[i].cleared) timers[i].fn();
    },
    count: () => timers.length,
  };
}

const READ_WORKER = new URL("../lib/library/history/import/read_worker.ts", import.meta.url).href;

/** Starts the read worker at `url` (a fixture's, or the real one's) and counts its ends. */
function tracked(url = READ_WORKER) {
  const workers = { started: 0, ended: 0 };
  const spawn = () => {
    const w = new Worker(url, { type: "module" });
    workers.started++;
    const terminate = w.terminate.bind(w);
    w.terminate = () => {
      workers.ended++;
      terminate();
    };
    return w;
  };
  return { workers, spawn };
}

const fixture = (name: string) => new URL(`./helpers/${name}.ts`, import.meta.url).href;

/** What a read rejects with, as a Problem. */
async function rejection(read: Promise<unknown>): Promise<Problem> {
  try {
    await read;
  } catch (error) {
    assert.ok(error instanceof Problem, String(error));
    return error;
  }
  throw new Error("the read did not fail");
}

const describe = (p: Problem) => ({
  status: p.status,
  code: p.code,
  detail: p.message,
  headers: p.headers,
  extensions: p.extensions,
});

const listCsv = "Letterboxd list export v7\n" +
  csvText(["Date", "Name", "Tags", "URL", "Description"], [[
    "2024-12-31",
    "Best",
    "",
    "https://boxd.it/l",
    "The best",
  ]]) + "\n" +
  csvText(["Position", "Name", "Year", "URL", "Description"], [
    [1, "Heat", 1995, "https://boxd.it/h", "the diner scene"],
    [2, "Alien", 1979, "https://boxd.it/a", ""],
  ]);

Deno.test("a file read in the worker gives exactly the in-thread read's rows, and its bytes are transferred, not copied", async () => {
  const { workers, spawn } = tracked();
  const read = offThreadReader({ spawn });
  const files: Record<string, Uint8Array> = {
    "Letterboxd ZIP with a list": letterboxdZip({ ...letterboxdCsvs(), "lists/best.csv": listCsv }),
    "Trakt JSON": jsonBytes(traktFiles()["watched-movies.json"]),
    "Trakt ZIP": zipSync(
      Object.fromEntries(
        Object.entries(traktFiles()).map(([name, value]) => [name, strToU8(JSON.stringify(value))]),
      ),
    ),
    "1 MiB Trakt JSON": traktExport(MIB),
    // 12,001 rows: three messages of rows, the last one short.
    "CSV of 12,001 rows": watchedCsv(12_001),
    "1 MiB CSV of unmatched titles": unmatchedCsv(MIB),
    "CSV with a 1 MiB title": longTitleCsv(),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const expected = await parseHistoryFile(bytes.slice());
    const sent = bytes.slice();
    const actual: ParsedFile = await read(sent);
    assert.deepStrictEqual(actual, expected, name);
    assert.ok(actual.rows.length > 0, name);
    assert.equal(sent.byteLength, 0, `${name}: the bytes went to the worker`);
  }
  // A worker per read, each ended after it.
  assert.deepEqual(workers, { started: 7, ended: 7 });
});

Deno.test("the ZIP bomb, the row limit, a corrupt ZIP and an unknown format are the same 400 Problems through the worker", async () => {
  const { workers, spawn } = tracked();
  const read = offThreadReader({ spawn });
  const zip = letterboxdZip();
  const cases: { name: string; bytes: Uint8Array; code: string; maxRows?: number }[] = [
    { name: "ZIP bomb", bytes: zipBomb(16 * MIB, 4 * MIB), code: "invalid_file" },
    { name: "row limit", bytes: manyRowsZip(1_001), code: "too_many_rows", maxRows: 1_000 },
    { name: "corrupt ZIP", bytes: zip.slice(0, zip.length - 30), code: "invalid_file" },
    { name: "unknown format", bytes: bytesOf("a,b,c\n1,2,3\n"), code: "unknown_format" },
    { name: "other JSON", bytes: jsonBytes({ hello: "world" }), code: "unknown_format" },
  ];
  for (const { name, bytes, code, maxRows } of cases) {
    const inThread = await rejection(parseHistoryFile(bytes.slice(), { maxRows }));
    const inWorker = await rejection(read(bytes.slice(), { maxRows }));
    assert.equal(inWorker.status, 400, name);
    assert.equal(inWorker.code, code, name);
    assert.deepStrictEqual(describe(inWorker), describe(inThread), name);
  }
  assert.deepEqual(workers, { started: 5, ended: 5 });
});

Deno.test("a Problem's status, code, detail, headers and extension members survive the trip from the worker", () => {
  const original = new Problem(429, "slow_down", "Later.", {
    headers: { "retry-after": "5" },
    extensions: { limit: 3, window: { seconds: 60 } },
  });
  // Structured clone is what carries a message between threads.
  const rebuilt = problemFrom(structuredClone(problemAnswer(original)));
  assert.ok(rebuilt instanceof Problem);
  assert.deepStrictEqual(describe(rebuilt), describe(original));
  assert.deepStrictEqual(rebuilt.toJSON(), original.toJSON());
});

Deno.test("the worker's side answers rows 5,000 at a time, then the file's other fields", async () => {
  const answers: ReadAnswer[] = [];
  const request: ReadRequest = { bytes: watchedCsv(12_001), options: {} };
  await answerRead(request, (answer) => answers.push(answer));
  assert.deepEqual(
    answers.map((a) => a.type === "rows" ? a.rows.length : a.type),
    [5_000, 5_000, 2_001, "done"],
  );
  assert.deepEqual(answers[3], { type: "done", format: "letterboxd", skipped: 0 });
});

Deno.test("a worker that throws something unexpected is a 500 internal_error carrying its message, not a hang", async () => {
  const { workers, spawn } = tracked(fixture("read_worker_throwing"));
  const read = offThreadReader({ spawn });
  const failed = await rejection(read(watchedCsv(3)));
  assert.deepEqual(workers, { started: 1, ended: 1 });
  assert.equal(failed.status, 500);
  assert.equal(failed.code, "internal_error");
  assert.match(String((failed.cause as Error).message), /the unexpected happened/);
  // The worker's own side catches what is not a Problem and answers it as a failure.
  const answers: ReadAnswer[] = [];
  await answerRead({ bytes: null as unknown as Uint8Array, options: {} }, (a) => answers.push(a));
  assert.equal(answers.length, 1);
  assert.equal(answers[0].type, "failed");
  assert.equal(answers[0].type === "failed" && answers[0].name, "TypeError");
});

Deno.test("a read past its deadline is 503 import_unavailable with Retry-After, and its worker is ended", async () => {
  const timer = handTimer();
  const { workers, spawn } = tracked(fixture("read_worker_silent"));
  const read = offThreadReader({ spawn, timer, deadlineMs: 60_000 });
  const pending = read(watchedCsv(3));
  timer.fire(0);
  const late = await rejection(pending);
  assert.deepEqual(workers, { started: 1, ended: 1 });
  assert.equal(late.status, 503);
  assert.equal(late.code, "import_unavailable");
  assert.equal(late.headers["retry-after"], "30");
  assert.match(late.message, /within 60 s/);
});

Deno.test("with one reader a second read waits: its worker starts only once the first read ended", async () => {
  const timer = handTimer();
  const silent = tracked(fixture("read_worker_silent"));
  const real = tracked();
  // The first read hangs; the second is a real one.
  const spawn = () => silent.workers.started === 0 ? silent.spawn() : real.spawn();
  const read = offThreadReader({ spawn, timer, readers: 1 });
  const first = read(watchedCsv(3));
  const second = read(watchedCsv(7));
  // Both deadlines run from the call; the second read has no worker while the first holds its place.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(timer.count(), 2);
  assert.equal(real.workers.started, 0);
  timer.fire(0);
  assert.equal((await rejection(first)).code, "import_unavailable");
  const parsed = await second;
  assert.equal(parsed.rows.length, 7);
  assert.deepEqual([silent.workers, real.workers], [
    { started: 1, ended: 1 },
    { started: 1, ended: 1 },
  ]);
});

Deno.test("HISTORY_READ_WORKERS: 1 by default on 4 cores or more, 0 (the in-thread read) on fewer and on Deno Deploy, from 0 to 8 when set", () => {
  const four = { cores: 4 };
  assert.equal(loadConfig({}, four).historyReadWorkers, 1);
  assert.equal(loadConfig({}, { cores: 3 }).historyReadWorkers, 0);
  assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "d1" }, four).historyReadWorkers, 0);
  assert.equal(
    loadConfig({ DENO_DEPLOYMENT_ID: "d1", HISTORY_READ_WORKERS: "1" }, four).historyReadWorkers,
    1,
  );
  assert.equal(loadConfig({ HISTORY_READ_WORKERS: "1" }, { cores: 2 }).historyReadWorkers, 1);
  assert.equal(loadConfig({ HISTORY_READ_WORKERS: "0" }, four).historyReadWorkers, 0);
  assert.equal(loadConfig({ HISTORY_READ_WORKERS: "8" }).historyReadWorkers, 8);
  for (const bad of ["9", "-1", "one", "1.5"]) {
    assert.throws(() => loadConfig({ HISTORY_READ_WORKERS: bad }), /HISTORY_READ_WORKERS/);
  }
});

Deno.test("the service reads the upload with the reader it is given, and carries on with its rows", async () => {
  await using w = await historyWorld();
  const seen: number[] = [];
  const service = createHistoryImportService(w.t.deps, {
    catalog: w.t.services.catalog,
    readFile: (bytes, options) => {
      seen.push(bytes.length);
      return parseHistoryFile(bytes, options);
    },
  });
  const file = letterboxdZip();
  const started = await service.start(w.user.id, file);
  await service.idle();
  assert.deepEqual(seen, [file.length]);
  const run = await service.get(w.user.id, started.importId);
  assert.equal(run.status, "succeeded");
});

Deno.test("the same upload imports alike read in the worker and, with HISTORY_READ_WORKERS=0, on the main thread", async () => {
  const runs = [];
  // Built once (500,001 rows at zip level 9 take seconds); each upload gets its own copy, since
  // the worker's read takes the bytes it is given.
  const tooMany = manyRowsZip(500_001);
  const envs: Record<string, string>[] = [{ HISTORY_READ_WORKERS: "1" }, {
    HISTORY_READ_WORKERS: "0",
  }];
  for (const env of envs) {
    await using w = await historyWorld({ env });
    const run = await w.importFile(
      letterboxdZip({ ...letterboxdCsvs(), "lists/best.csv": listCsv }),
    );
    assert.equal(run.status, "succeeded");
    runs.push({ format: run.format, counts: run.counts, films: run.films, lists: await w.lists() });
    const problem = await (await w.upload(tooMany.slice())).json();
    assert.equal(problem.code, "too_many_rows");
  }
  assert.deepStrictEqual(runs[0], runs[1]);
});
