/**
 * The database frozen (bytes held) and stopped (connections cut) mid-run, through a TCP proxy
 * in front of PostgreSQL (the shared server itself is never touched): reads and writes fail
 * 503 store_unavailable within 5 s plus slack, health says 503 within 2 s plus slack, and the
 * service recovers by itself once the database is back.
 */
import { startTcpProxy, viaProxy } from "@/tests/helpers/tcp_proxy.ts";
import { startWorld } from "../load/world.ts";
import { problemCode, record, since } from "./report.ts";

const QUERY_BOUND_MS = 5_000 + 2_000;
const HEALTH_BOUND_MS = 2_000 + 1_000;

/** Runs the freeze and the stop against a server whose DATABASE_URL goes through a proxy. */
export async function databaseFaults(databaseUrl: string): Promise<void> {
  const target = new URL(databaseUrl);
  await using proxy = startTcpProxy({
    hostname: target.hostname,
    port: Number(target.port || 5432),
  });
  await using world = await startWorld("postgres", {
    env: { DATABASE_URL: viaProxy(databaseUrl, proxy) },
  });
  const url = world.server.url;
  const headers = {
    authorization: `Bearer ${world.tokens.list10}`,
    "content-type": "application/json",
  };
  for (const fault of ["freeze", "stop"] as const) {
    proxy[fault]();
    let start = performance.now();
    const read = await fetch(`${url}/api/watched`, { headers });
    const readMs = since(start);
    const readCode = await problemCode(read);
    start = performance.now();
    const write = await fetch(`${url}/api/watched`, {
      method: "POST",
      headers,
      body: JSON.stringify({ catalogId: 77 }),
    });
    const writeMs = since(start);
    const writeCode = await problemCode(write);
    start = performance.now();
    const health = await fetch(`${url}/api/health`);
    await health.body?.cancel();
    const healthMs = since(start);
    proxy.resume();
    start = performance.now();
    let recovered = -1;
    while (since(start) < 30_000) {
      const res = await fetch(`${url}/api/watched`, { headers });
      await res.body?.cancel();
      if (res.status === 200) {
        recovered = since(start);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    record(
      `database ${fault === "freeze" ? "frozen" : "stopped"} mid-run`,
      read.status === 503 && readCode === "store_unavailable" && readMs <= QUERY_BOUND_MS &&
        write.status === 503 && writeCode === "store_unavailable" && writeMs <= QUERY_BOUND_MS &&
        health.status === 503 && healthMs <= HEALTH_BOUND_MS && recovered >= 0,
      `read ${read.status} ${readCode} in ${readMs} ms, write ${write.status} ${writeCode} in ${writeMs} ms, ` +
        `health ${health.status} in ${healthMs} ms; ` +
        (recovered >= 0
          ? `recovered ${recovered} ms after the database came back`
          : "never recovered"),
    );
  }
}
