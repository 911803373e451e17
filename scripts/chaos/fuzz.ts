/** The long fuzz: generated requests over HTTP against the running server (tests/fuzz_test.ts is the short one). */
import { manifest } from "@/routes.gen.ts";
import { fuzzer, judge, seeded } from "@/tests/helpers/fuzz.ts";
import type { World } from "../load/world.ts";
import { record } from "./report.ts";

/** Sends `count` fuzzed requests, 16 at a time, and judges every answer. */
export async function fuzzOverHttp(world: World, count: number, seed: number): Promise<void> {
  const next = fuzzer({
    routes: manifest.routes.map((r) => ({
      pattern: r.pattern,
      methods: Object.keys(r.module.handler ?? { GET: true }),
    })),
    // The 10-movie user: for the 1,000-movie one the fake AI names only watched movies (a 502).
    token: world.tokens.list10,
    adminToken: world.adminToken,
  }, seeded(seed));
  const failures: string[] = [];
  let errors = 0;
  for (let sent = 0; sent < count; sent += 16) {
    await Promise.all(Array.from({ length: 16 }, async () => {
      const request = next();
      try {
        const res = await fetch(`${world.server.url}${request.path}`, {
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        for (const problem of await judge(request, res)) {
          failures.push(`${problem} ${JSON.stringify(request).slice(0, 200)}`);
        }
      } catch (error) {
        errors++;
        if (errors <= 3) {
          failures.push(`fetch failed: ${error} ${JSON.stringify(request).slice(0, 200)}`);
        }
      }
    }));
  }
  const health = await fetch(`${world.server.url}/api/health`);
  await health.body?.cancel();
  record(
    `${count} fuzzed requests over HTTP (seed ${seed})`,
    failures.length === 0 && health.status === 200,
    failures.length
      ? `${failures.length} failures, first: ${failures[0]}`
      : `no 5xx, no leak; health ${health.status}`,
  );
}
