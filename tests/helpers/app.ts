/**
 * The app built in-process for a test, as main.ts builds it, against a temporary store and
 * KV, a fake clock, and fake external servers the test passes in through `env`.
 */
import type { Hono } from "hono";
import { createApp } from "@/app.ts";
import { type Clock, FakeClock } from "@/lib/core/clock.ts";
import { type Config, loadConfig } from "@/lib/core/config.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { PgKv } from "@/lib/platform/coordination/pg_kv.ts";
import type { Kv } from "@/lib/platform/kv/kv.ts";
import type { AppEnv } from "@/lib/http/app_env.ts";
import { createServices, type Services } from "@/lib/app/services.ts";
import { type Logger, memoryLogger } from "@/lib/core/log.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { type Engine, testStore } from "./store.ts";
import { generatePrivateJwk } from "@/lib/identity/auth/signing_key.ts";
import { trackImports } from "./catalog_imports.ts";
import { recordingFetch } from "./contract_recorder.ts";

/**
 * A test's app with everything it was built from; `C` is its clock's own type (a FakeClock
 * unless the test passed another), so a test moves it without a cast.
 */
export interface TestApp<C extends Clock = Clock> extends AsyncDisposable {
  app: Hono<AppEnv>;
  deps: AppDeps;
  /** The app's one set of services (its import service tracked for `importsSettled`). */
  services: Services;
  config: Config;
  store: Store;
  kv: Kv;
  clock: C;
  logs: ReturnType<typeof memoryLogger>["lines"];
  dataDir: string;
  /** Sends a request to the app; `path` is relative to the app's origin. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Options of a test app; `C` is the type of the clock passed in. */
export interface TestAppOptions<C extends Clock = Clock> {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  engine?: Engine;
  /** The app's clock; a new FakeClock when none is given. */
  clock?: C;
  fetch?: typeof fetch;
  /** Share an existing store (not closed with the app). */
  store?: Store;
  /** Share an existing KV (not closed with the app). */
  kv?: Kv;
  /** Where log lines go instead of the in-memory array (benchmarks: the production logger). */
  log?: Logger;
  /**
   * Record every /api answer for the contract test (tests/zz_api_contract_test.ts); on by
   * default, off for benchmarks, which would otherwise measure the recorder.
   */
  record?: boolean;
}

let sharedKey: Promise<string> | undefined;

/**
 * Builds the app for a test; dispose it with `await using`. Its `clock` has the type of the
 * one passed in, or is a FakeClock when none is.
 */
export async function testApp<C extends Clock = FakeClock>(
  options: TestAppOptions<C> = {},
): Promise<TestApp<C>> {
  const dataDir = await Deno.makeTempDir({ prefix: "movies-test-" });
  const config = loadConfig({
    DATA_DIR: dataDir,
    TMDB_BASE_URL: "http://127.0.0.1:9/3",
    CATALOG_IMPORT_CRON: "off",
    // The details job's asked runs would fetch behind every import and webhook test's back;
    // its own tests turn it on.
    DETAILS_CRON: "off",
    AUTH_SIGNING_KEY: JSON.stringify(
      await (sharedKey ??= generatePrivateJwk().then(JSON.stringify)).then(JSON.parse),
    ),
    ...options.env,
  });
  const store = options.store ?? await testStore(options.engine);
  // C defaults to FakeClock, which is what a test that passes no clock gets.
  const clock = options.clock ?? new FakeClock() as Clock as C;
  // COORDINATION=postgres (with DATABASE_URL in `env`): the store's coordination schema.
  const kv = options.kv ??
    (config.coordination === "postgres"
      ? new PgKv(store, { clock })
      : await Deno.openKv(":memory:"));
  const log = memoryLogger();
  const deps: AppDeps = {
    config,
    store,
    kv,
    clock,
    fetch: options.fetch ?? globalThis.fetch,
    log: options.log ?? log,
  };
  const services = createServices(deps);
  services.catalogImport = trackImports(deps, services.catalogImport);
  const app = createApp(deps, { services });
  // Hono's app.request goes through app.fetch, so both are recorded.
  if (options.record ?? true) app.fetch = recordingFetch(app.fetch);
  return {
    app,
    deps,
    services,
    config,
    store,
    kv,
    clock,
    logs: log.lines,
    dataDir,
    request: async (path, init) => await app.request(path, init),
    async [Symbol.asyncDispose]() {
      if (!options.kv) kv.close();
      if (!options.store) await store.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** GETs `path` from `t` and returns status, headers and the parsed JSON body. */
export async function getJson(t: { request(path: string): Promise<Response> }, path: string) {
  const res = await t.request(path);
  return { status: res.status, headers: res.headers, body: await res.json() };
}
