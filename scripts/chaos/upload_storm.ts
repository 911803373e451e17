/**
 * The upload storm (issue 43): five users upload a 20 MiB history file each at the same moment
 * (Trakt JSON exports and CSVs of films the catalog lacks, the heaviest to read), on a server that
 * has just started. Reported: each upload's answer and time, the server's resident memory before
 * and its peak from the first byte sent until UPLOAD_RUN_SECONDS after the last answer (the runs'
 * films are stored then), against a target of 800 MB. Then the runs are cancelled.
 * UPLOAD_STORM_MIB sizes the files (20 by default).
 */
import type { World } from "../load/world.ts";
import { traktExport, unmatchedCsv } from "@/tests/helpers/heavy_history_files.ts";
import { record, since } from "./report.ts";

const MIB = 1024 * 1024;
const FILE_MIB = Number(Deno.env.get("UPLOAD_STORM_MIB") ?? "20");
const RUN_SECONDS = Number(Deno.env.get("UPLOAD_RUN_SECONDS") ?? "10");
/** The peak the storm must stay under (issue 43: five uploads took 412 MB to 1.5 GB). */
const PEAK_TARGET_BYTES = 800 * 1000 * 1000;
const SAMPLE_EVERY_MS = 50;

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
}

/** Five 20 MiB files: the JSON reader's worst and the CSV reader's worst, alternating. */
function files(): { name: string; bytes: Uint8Array }[] {
  return Array.from(
    { length: 5 },
    (_, i) =>
      i % 2 === 0
        ? {
          name: `${FILE_MIB} MiB Trakt JSON #${i + 1}`,
          bytes: traktExport(FILE_MIB * MIB, 1 + i),
        }
        : {
          name: `${FILE_MIB} MiB CSV #${i + 1}`,
          bytes: unmatchedCsv(FILE_MIB * MIB - 1024, `Nowhere${i}`),
        },
  );
}

/** Runs the upload storm against `world` (which needs five extra users and a fresh server). */
export async function uploadStorm(world: World): Promise<void> {
  const url = world.server.url;
  const pid = world.server.pid;
  const sent = files();
  const before = status(pid, "VmRSS");
  // RSS sampled every 50 ms; the peak reported is the higher of that and VmHWM (the process's
  // whole life, which on a fresh server is this storm's: its start-up stays far below).
  let peak = before;
  let peakAt = 0;
  let sampling = true;
  const started = performance.now();
  // Every second's highest sample, to see where the peak falls (reading, storing, running).
  const seconds: number[] = [];
  const sampler = (async () => {
    while (sampling) {
      const now = status(pid, "VmRSS");
      const second = Math.floor(since(started) / 1000);
      seconds[second] = Math.max(seconds[second] ?? 0, now);
      if (now > peak) [peak, peakAt] = [now, since(started)];
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
    }
  })();
  const answered = await Promise.all(sent.map(async (file, i) => {
    const headers = {
      authorization: `Bearer ${world.userTokens[i]}`,
      "x-load-client": `10.43.1.${i + 1}`,
    };
    const start = performance.now();
    const res = await fetch(`${url}/api/import`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: file.bytes as Uint8Array<ArrayBuffer>,
    });
    const body = await res.json().catch(() => ({}));
    const rssNow = Math.round(status(pid, "VmRSS") / 1e6);
    return { name: file.name, headers, status: res.status, ms: since(start), body, rssNow };
  }));
  const lastAnswer = since(started);
  await new Promise((r) => setTimeout(r, RUN_SECONDS * 1000));
  sampling = false;
  await sampler;
  // A spike between two samples shows only in VmHWM; the server is fresh, so it is this storm's.
  const hwm = status(pid, "VmHWM");
  const worst = Math.max(peak, hwm);
  for (const upload of answered) {
    if (upload.status !== 202) continue;
    const cancel = await fetch(`${url}/api/import/${upload.body.importId}/cancel`, {
      method: "POST",
      headers: upload.headers,
    });
    await cancel.body?.cancel();
  }
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  const allStarted = answered.every((u) => u.status === 202);
  console.log(
    `  uploads: ${
      answered.map((u) =>
        `${u.name} ${u.status}${u.body.code ? ` ${u.body.code}` : ""} in ${u.ms} ms ` +
        `(RSS then ${u.rssNow} MB)`
      ).join("; ")
    }`,
  );
  console.log(
    `  RSS by second (MB): ${seconds.map((b) => Math.round((b ?? 0) / 1e6)).join(" ")}; ` +
      `peak at ${peakAt} ms`,
  );
  record(
    "upload storm",
    allStarted && worst < PEAK_TARGET_BYTES,
    `five ${FILE_MIB} MiB uploads at once: RSS ${mb(before)} before, peak ${mb(worst)} ` +
      `(sampled ${mb(peak)}, VmHWM ${mb(hwm)}; target < ${mb(PEAK_TARGET_BYTES)}); ` +
      `all answered 202: ${allStarted}; ` +
      `last answer after ${lastAnswer} ms`,
  );
}
