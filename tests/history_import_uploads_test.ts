/**
 * Uploads a process takes in at once (issue 43, item 13; docs/history.md, "Uploads at once"):
 * one read at a time, four waiting with their bytes, the next 503 before its body is read, and a
 * body with a declared length held once.
 */
import assert from "node:assert/strict";
import type { DeadlineTimer } from "@/lib/core/async/deadline.ts";
import { Problem } from "@/lib/core/problem.ts";
import { readCappedBody } from "@/lib/http/read_body.ts";
import type { ParsedFile } from "@/lib/library/history/import/rows.ts";
import { createHistoryImportService } from "@/lib/library/history/import/service.ts";
import { uploadGate } from "@/lib/library/history/import/upload_gate.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { problem } from "./helpers/problems.ts";
import { createUser } from "./helpers/users.ts";

/** A timer a test fires by hand. */
function handTimer() {
  const due: { fn: () => void; ms: number }[] = [];
  const timer: DeadlineTimer = {
    set: (fn, ms) => due.push({ fn, ms }),
    clear: () => {},
  };
  return { timer, due };
}

const MiB = 1024 * 1024;

const isProblem = (status: number, code: string) => (error: unknown) =>
  error instanceof Problem && error.status === status && error.code === code;

Deno.test("one upload is read at a time; four wait in order with their bytes; the sixth is 503 at once, its body unread", async () => {
  const gate = uploadGate();
  const order: string[] = [];
  let reading = 0;
  let most = 0;
  const releases: (() => void)[] = [];
  const upload = (name: string) =>
    gate(async (turn) => {
      order.push(`${name} admitted`);
      await turn();
      reading++;
      most = Math.max(most, reading);
      order.push(`${name} reads`);
      await new Promise<void>((r) => releases.push(r));
      reading--;
    });
  const five = ["a", "b", "c", "d", "e"].map(upload);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(order, [
    "a admitted",
    "b admitted",
    "c admitted",
    "d admitted",
    "e admitted",
    "a reads",
  ]);
  let sixthRan = false;
  await assert.rejects(
    () =>
      gate(() => {
        sixthRan = true;
        return Promise.resolve();
      }),
    (error) =>
      isProblem(503, "import_unavailable")(error) &&
      (error as Problem).headers["retry-after"] === "30",
  );
  assert.equal(sixthRan, false, "the sixth upload's work (its body read) never started");
  for (let i = 0; i < 5; i++) {
    releases.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  }
  await Promise.all(five);
  assert.equal(most, 1);
  assert.deepEqual(order.filter((o) => o.endsWith("reads")), [
    "a reads",
    "b reads",
    "c reads",
    "d reads",
    "e reads",
  ]);
  // Everyone left: there is room again.
  await gate(async (turn) => await turn());
});

Deno.test("an upload waiting 120 s for its place is 503 import_unavailable; the queue goes on without it", async () => {
  const { timer, due } = handTimer();
  const gate = uploadGate({ timer });
  let release!: () => void;
  const first = gate(async (turn) => {
    await turn();
    await new Promise<void>((r) => release = r);
  });
  await new Promise((r) => setTimeout(r, 0));
  let secondRead = false;
  const second = gate(async (turn) => {
    await turn();
    secondRead = true;
  });
  await new Promise((r) => setTimeout(r, 0));
  let thirdRead = false;
  const third = gate(async (turn) => {
    await turn();
    thirdRead = true;
  });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(due.map((d) => d.ms), [120_000, 120_000]);
  due[0].fn();
  await assert.rejects(() => second, isProblem(503, "import_unavailable"));
  release();
  await first;
  await third;
  assert.equal(secondRead, false);
  assert.equal(thirdRead, true);
});

Deno.test("two uploads at once are read one after the other, on the in-thread reader as on a worker", async () => {
  await using w = await historyWorld({ env: { HISTORY_READ_WORKERS: "0" } });
  let reading = 0;
  let most = 0;
  const reads: (() => void)[] = [];
  const service = createHistoryImportService(w.t.deps, {
    catalog: w.t.services.catalog,
    readFile: async (): Promise<ParsedFile> => {
      reading++;
      most = Math.max(most, reading);
      await new Promise<void>((r) => reads.push(r));
      reading--;
      return { format: "letterboxd", rows: [], skipped: 0 };
    },
  });
  const other = await createUser(w.t.deps);
  const file = bytesOf(csvText(["Date", "Name", "Year", "Letterboxd URI"], []));
  const started = [
    service.start(w.user.id, file),
    service.start(other.id, () => Promise.resolve(file)),
  ];
  for (let i = 0; i < 2; i++) {
    while (reads.length === 0) await new Promise((r) => setTimeout(r, 1));
    assert.equal(reads.length, 1, "one read at a time");
    reads.shift()!();
  }
  const answers = await Promise.all(started);
  assert.deepEqual(answers.map((a) => a.status), ["running", "running"]);
  assert.equal(most, 1);
  await service.idle();
});

Deno.test("POST /api/import past the uploads a process takes in is 503 with Retry-After before its body is read", async () => {
  await using w = await historyWorld();
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  let began!: () => void;
  const reading = new Promise<void>((r) => began = r);
  // One reading place, none waiting; the read is held until the test lets it go.
  w.t.services.historyImport = createHistoryImportService(w.t.deps, {
    catalog: w.t.services.catalog,
    uploads: uploadGate({ readers: 1, waiting: 0 }),
    readFile: async () => {
      began();
      await held;
      return { format: "letterboxd", rows: [], skipped: 0 };
    },
  });
  const other = await createUser(w.t.deps);
  const first = w.upload("Date,Name,Year,Letterboxd URI\n");
  await reading;
  // 100 pieces of 64 KiB; streams in between may pull one or two ahead of any reader.
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (++pulled > 100) controller.close();
      else controller.enqueue(new Uint8Array(65_536).fill(0x61));
    },
  }, { highWaterMark: 0 });
  const refused = await w.t.request("/api/import", {
    method: "POST",
    headers: { ...other.headers, "content-type": "application/octet-stream" },
    body,
    duplex: "half",
  } as RequestInit);
  const detail = await problem(refused, 503, "import_unavailable");
  assert.equal(refused.headers.get("retry-after"), "30");
  assert.match(String(detail.detail), /other uploads/);
  assert.ok(pulled <= 2, `the refused upload's body was not read: ${pulled} of 100 pieces pulled`);
  release();
  assert.equal((await first).status, 202);
  await w.t.services.historyImport.idle();
});

Deno.test("a body of declared length is read whole; one longer or shorter than it declares too", async () => {
  const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
  const chunked = (parts: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  const request = (declared: number | null, parts: Uint8Array[]) =>
    new Request("http://x/", {
      method: "POST",
      headers: declared === null ? {} : { "content-length": String(declared) },
      body: chunked(parts),
      duplex: "half",
    } as RequestInit);
  const pieces = [
    bytes.subarray(0, 65_536),
    bytes.subarray(65_536, 200_000),
    bytes.subarray(200_000),
  ];
  const limit = { maxBytes: 1_000_000 };
  assert.deepEqual(await readCappedBody(request(bytes.length, pieces), limit), bytes);
  assert.deepEqual(await readCappedBody(request(null, pieces), limit), bytes);
  assert.deepEqual(await readCappedBody(request(100_000, pieces), limit), bytes);
  assert.deepEqual(await readCappedBody(request(400_000, pieces), limit), bytes);
  // The cap holds whatever was declared.
  assert.equal(await readCappedBody(request(1000, pieces), { maxBytes: 299_999 }), null);
  assert.equal(await readCappedBody(request(300_000, pieces), { maxBytes: 299_999 }), null);
});

Deno.test("a read that grew the heap by 32 MiB is followed by one full collection; 32 MiB less a byte, none", async () => {
  await using w = await historyWorld();
  let collections = 0;
  let heap = 100 * MiB;
  let grows = 0;
  const service = createHistoryImportService(w.t.deps, {
    catalog: w.t.services.catalog,
    collect: () => collections++,
    heapUsed: () => heap,
    readFile: () => {
      heap += grows;
      return Promise.resolve({ format: "letterboxd", rows: [], skipped: 0 });
    },
  });
  grows = 32 * MiB - 1;
  await service.start(w.user.id, new Uint8Array(10));
  await service.idle();
  assert.equal(collections, 0);
  grows = 32 * MiB;
  const other = await createUser(w.t.deps);
  await service.start(other.id, new Uint8Array(10));
  await service.idle();
  assert.equal(collections, 1);
  // A heap of 512 MiB in use is someone else's live data: no pause for it.
  heap = 512 * MiB - grows;
  const third = await createUser(w.t.deps);
  await service.start(third.id, new Uint8Array(10));
  await service.idle();
  assert.equal(collections, 1);
});

Deno.test("a read refused half-way is followed by the collection too", async () => {
  await using w = await historyWorld();
  let collections = 0;
  let heap = 100 * MiB;
  const service = createHistoryImportService(w.t.deps, {
    catalog: w.t.services.catalog,
    collect: () => collections++,
    heapUsed: () => heap,
    readFile: () => {
      heap += 200 * MiB;
      return Promise.reject(new Problem(400, "too_many_rows", "Too many rows."));
    },
  });
  await assert.rejects(
    () => service.start(w.user.id, new Uint8Array(10)),
    isProblem(400, "too_many_rows"),
  );
  assert.equal(collections, 1);
});
