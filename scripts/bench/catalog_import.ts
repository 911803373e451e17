/**
 * The catalog import's sustained external call rate against the fake TMDB answering in 50 ms,
 * as a fraction of the shared 40-calls-per-second window (target >= 0.95). Real clock: the run
 * starts at the top of a wall-clock second, like the window, and the figure is the mean calls
 * per window over every window but the last (the tail has fewer calls left to make).
 */
import { systemClock } from "@/lib/core/clock.ts";
import { createCatalogImportService, DEFAULT_CONCURRENCY } from "@/lib/catalog/import/mod.ts";
import { WINDOW_LIMIT } from "@/lib/catalog/external_window.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";

const LATENCY_MS = 50;

async function topOfSecond(): Promise<void> {
  while (Date.now() % 1000 > 20) {
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
  }
}

async function measure(pages: number, concurrency: number) {
  await using fake = await startFakeTmdb({ latencyMs: LATENCY_MS, popularPages: pages });
  await using t = await testApp({ env: tmdbEnv(fake), clock: systemClock, record: false });
  const imports = createCatalogImportService(t.deps, {
    catalog: t.services.catalog,
    concurrency,
  });
  await topOfSecond();
  const started = performance.now();
  const outcome = await (await imports.start({ pages })).done;
  const ms = performance.now() - started;
  if (outcome.status !== "succeeded" || outcome.errors > 0) {
    throw new Error(`the run did not succeed cleanly: ${JSON.stringify(outcome)}`);
  }
  const perWindow = new Map<number, number>();
  for (const r of fake.requests) {
    const second = Math.floor((performance.timeOrigin + r.at) / 1000);
    perWindow.set(second, (perWindow.get(second) ?? 0) + 1);
  }
  const first = Math.min(...perWindow.keys());
  const last = Math.max(...perWindow.keys());
  const counts = Array.from({ length: last - first + 1 }, (_, i) => perWindow.get(first + i) ?? 0);
  const full = counts.slice(0, -1);
  const rate = full.reduce((a, b) => a + b, 0) / full.length;
  console.log(
    `${pages} pages (${fake.requests.length} calls), ${concurrency} in flight: ` +
      `${(rate / WINDOW_LIMIT).toFixed(3)} of the window (${rate.toFixed(1)} calls/s sustained), ` +
      `run ${(ms / 1000).toFixed(2)} s, calls per window [${counts.join(", ")}], ` +
      `max ${Math.max(...counts)}`,
  );
}

/** Prints the figure for the default concurrency (5 and 25 pages) and for 2 calls in flight. */
export default async function bench(): Promise<void> {
  await measure(5, DEFAULT_CONCURRENCY);
  await measure(25, DEFAULT_CONCURRENCY);
  await measure(5, 2);
}

if (import.meta.main) await bench();
