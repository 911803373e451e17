/**
 * Stalled bodies (issue 31, items 18 and 21): rounds of clients that send a request's headers
 * and part of its body, then neither finish it nor close the socket. The real server, once
 * through `Deno.serve` (HTTP_SERVER=deno_serve, the baseline) and once through its own
 * connections (the default, lib/http/serve_sockets.ts), in the same run: RSS after each
 * round, the sockets the server closed after its 408, and as a price check the rate of
 * `GET /api/health` over 8 keep-alive clients. BODY_TIMEOUT_MS is 1 s so a round takes seconds.
 * PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (steadier RSS), else embedded.
 */
import { spawnServer } from "@/tests/helpers/process.ts";
import { rssMb } from "../load/generator.ts";

const ROUNDS = 4;
const CLIENTS = 500;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const encoder = new TextEncoder();

interface Stalled {
  conn: Deno.Conn;
  answered: Promise<boolean>;
  closedByServer: boolean;
}

/** One client: headers and a partial body, then it waits, reading whatever comes. */
async function stall(port: number): Promise<Stalled> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(
    "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
      'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":',
  ));
  const client: Stalled = { conn, answered: Promise.resolve(false), closedByServer: false };
  client.answered = (async () => {
    const buffer = new Uint8Array(4096);
    let got408 = false;
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      if (/^HTTP\/1\.1 408/.test(new TextDecoder().decode(buffer.subarray(0, n)))) got408 = true;
    }
    client.closedByServer = true;
    return got408;
  })();
  return client;
}

async function healthRate(origin: string): Promise<number> {
  const total = 4000;
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next++ < total) await (await fetch(`${origin}/api/health`)).arrayBuffer();
  }));
  return total / ((performance.now() - started) / 1000);
}

async function run(mode: "deno_serve" | "sockets", env: Record<string, string>) {
  await using server = await spawnServer({ ...env, HTTP_SERVER: mode, BODY_TIMEOUT_MS: "1000" });
  if (!server.url) throw new Error(server.lines.join("\n"));
  const port = Number(new URL(server.url).port);
  const rate = await healthRate(server.url);
  await pause(1000);
  const rss = [await rssMb(server.pid)];
  const clients: Stalled[] = [];
  let got408 = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const batch = await Promise.all(Array.from({ length: CLIENTS }, () => stall(port)));
    clients.push(...batch);
    // The 408 comes after the 1 s deadline; give the server 3 s more to close what it will.
    await pause(4000);
    rss.push(await rssMb(server.pid));
  }
  for (const c of clients) {
    if (c.closedByServer && await c.answered) got408++;
  }
  const stillOpen = clients.filter((c) => !c.closedByServer).length;
  for (const c of clients) {
    try {
      c.conn.close();
    } catch {
      // closed by the server
    }
  }
  await Promise.all(clients.map((c) => c.answered));
  return { rate, rss, stillOpen, got408 };
}

/** Prints RSS per round and open sockets for both servers, and the ratios. */
export default async function bench(): Promise<void> {
  const url = Deno.env.get("BENCH_DATABASE_URL") || Deno.env.get("TEST_DATABASE_URL");
  const dir = await Deno.makeTempDir({ prefix: "movies-stalled-" });
  const env: Record<string, string> = { DATA_DIR: dir, ...(url ? { DATABASE_URL: url } : {}) };
  try {
    const before = await run("deno_serve", env);
    const after = await run("sockets", env);
    const total = ROUNDS * CLIENTS;
    for (
      const [label, r] of [["Deno.serve (before)", before], ["own sockets server", after]] as const
    ) {
      console.log(
        `${label}: RSS ${r.rss.map((mb) => mb.toFixed(0)).join(" -> ")} MB after rounds of ` +
          `${CLIENTS}; 408 then closed by the server ${r.got408}/${total}; ` +
          `still open ${r.stillOpen}/${total}; health ${r.rate.toFixed(0)} req/s`,
      );
    }
    const growth = (r: typeof before) => r.rss[r.rss.length - 1] - r.rss[0];
    console.log(
      `RSS growth over ${total} stalled bodies: ${growth(before).toFixed(0)} MB before, ` +
        `${growth(after).toFixed(0)} MB after (ratio ${
          (growth(after) / growth(before)).toFixed(2)
        }); health rate ratio ${(after.rate / before.rate).toFixed(2)}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
