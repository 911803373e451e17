/**
 * The entry point: reads the configuration, opens the store (applying migrations) and KV,
 * builds the app and serves it. `GET /api/health` answers 503 until all of that is done.
 */
import { createApp } from "./app.ts";
import { withDeadline } from "./lib/core/async/deadline.ts";
import { systemClock } from "./lib/core/clock.ts";
import { ConfigError, describeDatabase, loadConfig } from "./lib/core/config.ts";
import type { AppDeps } from "./lib/platform/deps.ts";
import { type CatalogImportService, scheduledImport } from "./lib/catalog/import/mod.ts";
import { type AvailabilityService, scheduledAvailability } from "./lib/catalog/availability/mod.ts";
import { type DetailsService, scheduledDetails } from "./lib/catalog/details/mod.ts";
import { recoverAfterRestart } from "./lib/platform/jobs/restart.ts";
import { openCoordination } from "./lib/platform/coordination/open.ts";
import { startSweeping } from "./lib/platform/coordination/sweep.ts";
import { HeldLeases } from "./lib/platform/kv/lock.ts";
import { jsonLogger } from "./lib/core/log.ts";
import { Problem, problemResponse } from "./lib/core/problem.ts";
import { type RunningServer, serveSockets } from "./lib/http/serve_sockets.ts";
import { createServices, restartHooks } from "./lib/app/services.ts";
import { migrate, readMigrations } from "./lib/platform/store/migrate.ts";
import { DataDirInUse } from "./lib/platform/store/dir_lock.ts";
import { openStore } from "./lib/platform/store/mod.ts";
import { IDLE_TRIM_MS, MEMORY_BUDGET, trimWhenIdle } from "./lib/platform/memory_trim.ts";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    Deno.exit(1);
  }
  throw error;
}

// The scheduled import is registered at the top level before serving, as Deno Deploy requires;
// a tick waits until the start-up below has built the import service.
const importReady = Promise.withResolvers<CatalogImportService>();
if (config.catalogImportCron) {
  Deno.cron("catalog-import", config.catalogImportCron, async () => {
    await scheduledImport(await importReady.promise, { log: jsonLogger });
  });
}

// The availability job (docs/availability.md): its own schedule, one run at a time (a lease).
const availabilityReady = Promise.withResolvers<AvailabilityService>();
if (config.availabilityCron) {
  Deno.cron("availability", config.availabilityCron, async () => {
    await scheduledAvailability(await availabilityReady.promise, { log: jsonLogger });
  });
}

// The details job (docs/catalog.md): every film a user has gets its full details.
const detailsReady = Promise.withResolvers<DetailsService>();
if (config.detailsCron) {
  Deno.cron("details", config.detailsCron, async () => {
    await scheduledDetails(await detailsReady.promise, { log: jsonLogger });
  });
}

const serving: {
  app?: (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;
} = {};
const starting = new Problem(503, "not_ready", "The service is starting; try again in a moment.", {
  headers: { "Retry-After": "1" },
});

// Start-up's compiling, and each burst of requests, leave freed memory in the C heap's arenas:
// handed back once the server has been idle for a second (lib/platform/memory_trim.ts).
const idleTrim = trimWhenIdle({
  periodMs: IDLE_TRIM_MS,
  budgetBytes: MEMORY_BUDGET[config.databaseUrl ? "postgres" : "embedded"],
});

// `info` carries the client address the sign-in limits count by (hono/deno getConnInfo).
const handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
  idleTrim?.activity();
  return serving.app ? serving.app(request, info) : problemResponse(starting);
};
// Our own server (lib/http/serve_sockets.ts) closes a stalled body's socket after its 408; Deno.serve keeps it
// (docs/faults.md), and is what Deno Deploy serves.
const server: RunningServer = config.httpServer === "sockets"
  ? serveSockets({ port: config.port }, handler)
  : Deno.serve({ port: config.port, onListen: () => {} }, handler);

const started = performance.now();
const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: `${config.dataDir}/pg` })
  .catch((error) => {
    // A second server on one DATA_DIR refuses to start with one line (docs/faults.md).
    if (!(error instanceof DataDirInUse)) throw error;
    console.error(error.message);
    Deno.exit(1);
  });
await migrate(store, await readMigrations());
const kv = await openCoordination(config, { store, clock: systemClock });
// Expired coordination rows are swept off the request path (docs/coordination.md).
const stopSweeping = config.coordination === "postgres"
  ? startSweeping(store, { clock: systemClock, log: jsonLogger })
  : () => {};
const leases = new HeldLeases();
const deps: AppDeps = {
  config,
  store,
  kv,
  clock: systemClock,
  fetch: globalThis.fetch,
  log: jsonLogger,
  leases,
};
// One set of services per process: the cron job imports through the app's own catalog.
const services = createServices(deps);
// The background jobs' runs a restart cut off (lib/platform/jobs/restart.ts): marked failed or resumed,
// now and again once the lease of the process this one replaces has run out.
await recoverAfterRestart(deps, restartHooks(deps, services));
importReady.resolve(services.catalogImport);
availabilityReady.resolve(services.availability);
detailsReady.resolve(services.details);
const app = createApp(deps, { services });
serving.app = app.fetch;
// Alerts reach their channels from the queue, off the request path (docs/alerts.md).
services.alertDelivery.start();
// The local recommender's index is built off the request path, yielding as it goes; until it is
// ready "more like this" answers from one statement (docs/recommend.md, "Local picks").
void services.localRecommend.warm();

jsonLogger({
  level: "info",
  msg: "listening",
  url: `http://localhost:${server.addr.port}`,
  store: describeDatabase(config),
  coordination: config.coordination,
  identity: config.supabase ? `supabase (${new URL(config.supabase.url).host})` : "built-in",
  readyMs: Math.round(performance.now() - started),
});

// SIGTERM (docs/faults.md): stop accepting, let in-flight requests finish for up to
// SHUTDOWN_DRAIN_MS (10 s), hand back the KV leases still held (a generation cut off here would
// otherwise block its user for the lease's five minutes), close KV and the store, exit 0.
const DRAIN_MS = config.shutdownDrainMs;
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  jsonLogger({ level: "info", msg: "shutting down", drainMs: DRAIN_MS });
  // Movie nights' event streams last as long as a night: ended now, they hold no drain, and the
  // phones reconnect (to another instance if there is one; docs/nights.md).
  services.nights.closeStreams();
  const drained = await withDeadline(server.shutdown().then(() => true), DRAIN_MS, {
    onLate: () => false,
  });
  if (!drained) jsonLogger({ level: "warn", msg: "requests still running after the drain" });
  await withDeadline(services.alertDelivery.stop(), 2_000, { onLate: () => undefined });
  const released = await leases.releaseAll();
  if (released) jsonLogger({ level: "info", msg: "released leases", count: released });
  stopSweeping();
  kv.close();
  await withDeadline(store.close(), 2_000, { onLate: () => undefined });
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", shutdown);
if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", shutdown);
