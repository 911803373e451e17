/**
 * Slow-body clients: many POSTs whose chunked body never finishes. Each must end with 408
 * body_timeout within the deadline (10 s) plus slack, while the server stays responsive.
 */
import type { World } from "../load/world.ts";
import { record, since } from "./report.ts";

const CLIENTS = 200;
const BOUND_MS = 10_000 + 5_000;

async function stalledPost(port: number, token: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(
      `POST /api/watched HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"cat\r\n',
    ));
    const buffer = new Uint8Array(4096);
    const timer = setTimeout(() => conn.close(), BOUND_MS + 5_000);
    const n = await conn.read(buffer).catch(() => null);
    clearTimeout(timer);
    const head = n ? new TextDecoder().decode(buffer.subarray(0, n)) : "";
    return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), ms: since(start) };
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
}

/** Runs the slow-body clients against `world`. */
export async function slowBodies(world: World): Promise<void> {
  const port = Number(new URL(world.server.url).port);
  const pending = Array.from({ length: CLIENTS }, () => stalledPost(port, world.tokens.list10));
  // Meanwhile the server answers others at once.
  await new Promise((r) => setTimeout(r, 1000));
  const start = performance.now();
  const health = await fetch(`${world.server.url}/api/health`);
  await health.body?.cancel();
  const healthMs = since(start);
  const results = await Promise.all(pending);
  const timedOut = results.filter((r) => r.status === 408 && r.ms <= BOUND_MS).length;
  const slowest = Math.max(...results.map((r) => r.ms));
  record(
    `${CLIENTS} slow-body clients`,
    timedOut === CLIENTS && health.status === 200,
    `${timedOut}/${CLIENTS} ended 408 within ${BOUND_MS} ms (slowest ${slowest} ms); ` +
      `health meanwhile ${health.status} in ${healthMs} ms`,
  );
}
