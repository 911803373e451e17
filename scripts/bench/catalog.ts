/**
 * Cached GET /api/movies/:id (in-process `app.request`, the detail in the LRU) in requests per
 * second, as a ratio to a bare Hono route answering the same JSON, measured in the same run.
 * Target: ratio >= 0.5. For context it also measures the app's floor: the same app (same
 * middleware, logger and router) with a trivial route answering that JSON, which bounds what
 * any route of this app can reach.
 */
import { Hono } from "hono";
import { createApp } from "@/app.ts";
import { createJsonLogger } from "@/lib/core/log.ts";
import { manifest } from "@/routes.gen.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";

const ROUNDS = 15;
const ROUND_MS = 150;
const WARM_UP = 3000;

async function rate(request: () => Response | Promise<Response>): Promise<number> {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS) {
    await (await request()).text();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Prints requests per second of the cached detail, the bare route and the app's floor. */
export default async function bench(): Promise<void> {
  await using fake = await startFakeTmdb();
  // The production logger, its text dropped instead of written: every request still builds
  // and serialises its log line, as in production, without filling the terminal.
  const log = createJsonLogger({ sink: { write: () => {} } });
  await using t = await testApp({ env: tmdbEnv(fake), log, record: false });
  const warm = await t.request("/api/movies/84892");
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
  const detail = await warm.json();

  const bare = new Hono();
  bare.get("/api/movies/:id", (c) => c.json(detail));
  const floor = createApp(t.deps, {
    manifest: {
      ...manifest,
      routes: [...manifest.routes, {
        pattern: "/api/bench/floor/:id",
        file: "bench",
        module: { handler: { GET: (c) => c.json(detail) } },
      }],
    },
  });

  const cases: Record<string, () => Response | Promise<Response>> = {
    detail: () => t.app.request("/api/movies/84892"),
    bare: () => bare.request("/api/movies/84892"),
    floor: () => floor.request("/api/bench/floor/84892"),
  };
  for (const request of Object.values(cases)) {
    for (let i = 0; i < WARM_UP; i++) await (await request()).text();
  }
  const queriesBefore = t.store.stats.queries;
  const rates: Record<string, number[]> = { detail: [], bare: [], floor: [] };
  const ratios: Record<string, number[]> = { detail: [], floor: [] };
  // Short interleaved rounds, each side's ratio taken against the bare route of its own round
  // (order reversed every other round), so a noisy neighbour slows both sides of a ratio alike.
  const names = Object.keys(cases);
  for (let i = 0; i < ROUNDS; i++) {
    const round: Record<string, number> = {};
    for (const name of i % 2 ? [...names].reverse() : names) round[name] = await rate(cases[name]);
    for (const name of names) rates[name].push(round[name]);
    ratios.detail.push(round.detail / round.bare);
    ratios.floor.push(round.floor / round.bare);
  }
  const [ours, baseline, app] = [median(rates.detail), median(rates.bare), median(rates.floor)];
  const [ratio, floorRatio] = [median(ratios.detail), median(ratios.floor)];
  console.log(
    `cached GET /api/movies/:id ${ours.toFixed(0)} req/s, bare Hono JSON route ${
      baseline.toFixed(0)
    } req/s: ratio ${ratio.toFixed(2)} (target >= 0.5; median of ${ROUNDS} rounds' ratios)`,
  );
  console.log(
    `app floor (trivial JSON route in the same app) ${app.toFixed(0)} req/s: ratio ${
      floorRatio.toFixed(2)
    }; the detail route reaches ${
      (ratio / floorRatio).toFixed(2)
    } of the floor; TMDB calls ${fake.requests.length}, store queries while measuring ${
      t.store.stats.queries - queriesBefore
    }`,
  );
}

if (import.meta.main) await bench();
