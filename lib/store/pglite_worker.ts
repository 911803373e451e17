/**
 * The embedded database's own thread (./pglite_thread.ts starts it, one per store): PGlite runs
 * its statements here, so a long one (an import's batch with its triggers, the upkeep's ANALYZE)
 * never holds the event loop that answers requests. One request in, one answer out, by id; the
 * store's queue on the other side (./lanes.ts) sends one call at a time.
 */
import { PGlite } from "@electric-sql/pglite";
import { IDLE_TRIM_MS, trimWhenIdle } from "../memory_trim.ts";
import { autoAnalyze } from "./pglite_analyze.ts";
import { PGLITE_START_PARAMS } from "./pglite_params.ts";
import type { ThreadAnswer, ThreadRequest } from "./pglite_thread.ts";

let db: PGlite | undefined;
// This thread's heap is its own: opening leaves the data directory's and PGlite's bundle's
// buffers behind, and a burst of statements its results, which the server's idle release
// (main.ts) never reaches. Released the same way once no call came for a period.
const idle = trimWhenIdle({ periodMs: IDLE_TRIM_MS });
let upkeep: (() => Promise<void>) | undefined;

function opened(): PGlite {
  if (!db) throw new Error("the embedded store is not open");
  return db;
}

/** An error's message and its scalar fields (a Postgres error's `code`, `constraint`, ...). */
function plainError(error: unknown): Extract<ThreadAnswer, { ok: false }>["error"] {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

async function answer(request: ThreadRequest): Promise<[unknown, Transferable[]]> {
  switch (request.op) {
    case "open": {
      db = await PGlite.create({
        startParams: PGLITE_START_PARAMS,
        ...(request.dataDir ? { dataDir: request.dataDir } : {}),
        ...(request.load ? { loadDataDir: new Blob([request.load]) } : {}),
        ...(request.wasmModule ? { wasmModule: request.wasmModule } : {}),
      });
      // The store's side decides when to look (after its calls, at most every few seconds).
      upkeep = autoAnalyze(db, { everyMs: 0 });
      return [undefined, []];
    }
    case "query":
      return [(await opened().query(request.sql, request.params)).rows, []];
    case "exec":
      await opened().exec(request.sql);
      return [undefined, []];
    case "upkeep":
      await upkeep?.();
      return [undefined, []];
    case "dump": {
      const bytes = await (await opened().dumpDataDir("none")).arrayBuffer();
      return [bytes, [bytes]];
    }
    case "close":
      await db?.close();
      db = undefined;
      return [undefined, []];
  }
}

self.addEventListener("message", async (event) => {
  const request = (event as MessageEvent<ThreadRequest>).data;
  idle?.activity();
  let reply: ThreadAnswer;
  let transfer: Transferable[] = [];
  try {
    const [value, moved] = await answer(request);
    reply = { id: request.id, ok: true, value };
    transfer = moved;
  } catch (error) {
    reply = { id: request.id, ok: false, error: plainError(error) };
  }
  self.postMessage(reply, { transfer });
});
