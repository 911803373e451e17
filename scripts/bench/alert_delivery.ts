/**
 * The alert delivery queue (issue 46): 10,000 alerts (100 users with one ntfy channel each, 100
 * alerts each) delivered through the queue by one instance's worker to a fake ntfy answering in
 * 50 ms. Figures: the throughput (alerts a second; the ceiling is 4 at once / 50 ms = 80/s), and
 * GET /api/health asked every 100 ms meanwhile (p99, target <= 100 ms), against health asked the
 * same way with the queue idle just before, in the same run. With TEST_DATABASE_URL it runs on
 * PostgreSQL too.
 */
import { systemClock } from "@/lib/core/clock.ts";
import { createDeliveryWorker } from "@/lib/catalog/notifications/delivery/mod.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { startFakeNtfy } from "@/tests/helpers/fake_ntfy.ts";
import { type Engine, TEST_DATABASE_URL } from "@/tests/helpers/store.ts";
import { createUser } from "@/tests/helpers/users.ts";

const USERS = 100;
const PER_USER = 100;
const LATENCY_MS = 50;
const IDLE_MS = 10_000;

type App = Awaited<ReturnType<typeof testApp>>;

/** Asks health every 100 ms until `stop` resolves; the times sorted. */
async function healthTimes(t: App, stop: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let asking = true;
  stop.then(() => asking = false);
  while (asking) {
    const at = performance.now();
    const res = await t.request("/api/health");
    await res.body?.cancel();
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
    times.push(performance.now() - at);
    await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - at))));
  }
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

async function run(engine: Engine): Promise<void> {
  await using ntfy = startFakeNtfy();
  ntfy.delayMs = LATENCY_MS;
  await using t = await testApp({
    engine,
    clock: systemClock,
    record: false,
    env: { ALERT_PRIVATE_TARGETS: "allow" },
  });
  await t.store.query(
    `insert into public.movies (catalog_id, title, year) values (1, 'Bench Film', 2026)
      on conflict do nothing`,
  );
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(t.deps);
    const res = await t.request("/api/me/alerts/channels", {
      method: "POST",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ type: "ntfy", url: ntfy.topicUrl(`bench-${i}`) }),
    });
    if (res.status !== 201) throw new Error(`channel: ${res.status} ${await res.text()}`);
    users.push(user.id);
  }
  await (await t.request("/api/health")).body?.cancel();

  // Health with the queue idle: the baseline of the same run.
  const idle = await healthTimes(t, new Promise((r) => setTimeout(r, IDLE_MS)));

  // 10,000 alerts, queued by the trigger as the availability job's inserts would queue them.
  await t.store.query(
    `insert into public.user_notifications (user_id, kind, catalog_id, provider_id, region)
     select u, 'now_streaming', 1, 8, 'DE' from unnest($1::uuid[]) u, generate_series(1, $2)`,
    [users, PER_USER],
  );
  const total = USERS * PER_USER;
  const worker = createDeliveryWorker(t.deps);
  const started = performance.now();
  const done = (async () => {
    worker.start();
    while (ntfy.messages.length < total) await new Promise((r) => setTimeout(r, 50));
    await worker.stop();
  })();
  const busy = await healthTimes(t, done);
  const seconds = (performance.now() - started) / 1000;
  const [{ left }] = await t.store.query<{ left: number }>(
    `select count(*)::integer as left from public.alert_deliveries`,
  );
  console.log(
    `[${engine}] ${ntfy.messages.length} alerts delivered to a fake answering in ${LATENCY_MS} ms ` +
      `in ${seconds.toFixed(1)} s: ${(total / seconds).toFixed(1)} a second (ceiling ` +
      `${(4 * 1000 / LATENCY_MS).toFixed(0)}: ${((total / seconds) / 80).toFixed(2)}x), ` +
      `${left} left in the queue`,
  );
  console.log(
    `[${engine}] health every 100 ms: idle p50 ${pct(idle, 0.5).toFixed(1)} ms p99 ` +
      `${pct(idle, 0.99).toFixed(1)} ms (${idle.length}); delivering p50 ` +
      `${pct(busy, 0.5).toFixed(1)} ms p99 ${pct(busy, 0.99).toFixed(1)} ms max ` +
      `${pct(busy, 1).toFixed(1)} ms (${busy.length}); p99 delivering / idle ` +
      `${(pct(busy, 0.99) / pct(idle, 0.99)).toFixed(2)}x; ` +
      `${busy.filter((ms) => ms > 100).length} over 100 ms`,
  );
}

/** Runs the queue benchmark on the embedded store, and on PostgreSQL with TEST_DATABASE_URL. */
export default async function bench(): Promise<void> {
  await run("embedded");
  if (TEST_DATABASE_URL) await run("postgres");
}

if (import.meta.main) await bench();
