/**
 * The load generator of `deno task load` when Debian's `wrk` is absent: `connections` fetch
 * loops against one URL for `seconds`, printing one JSON line with requests per second,
 * p50/p99 in ms and the statuses. Usage: client.ts URL CONNECTIONS SECONDS [HEADERS_JSON]
 * where HEADERS_JSON is one header object, or an array of them: connection i sends set i.
 */
const [url, connections, seconds, headerJson] = Deno.args;
const parsed = headerJson ? JSON.parse(headerJson) : {};
const sets: Record<string, string>[] = Array.isArray(parsed) ? parsed : [parsed];
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const end = performance.now() + Number(seconds) * 1000;
const started = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, async (_, i) => {
  const headers = sets[i % sets.length];
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
}));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({
  rps: latencies.length / elapsed,
  p50: at(0.5),
  p99: at(0.99),
  statuses,
}));
