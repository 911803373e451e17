import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ConfigError, loadConfig } from "../lib/core/config.ts";
import { createJsonLogger } from "../lib/core/log.ts";
import { Hono } from "hono";
import { createApp } from "../app.ts";
import type { Manifest } from "../lib/http/app_env.ts";

Deno.test("GET /api/health answers 200 ok once migrations are applied", async () => {
  await using t = await testApp();
  const res = await t.request("/api/health");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
  assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
});

Deno.test("GET /api/health answers 503 not_ready before the migrations", async () => {
  await using t = await testApp();
  await t.store.query("delete from supabase_migrations.schema_migrations");
  const res = await t.request("/api/health");
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "not_ready");
});

Deno.test("an unknown /api path answers a 404 problem", async () => {
  await using t = await testApp();
  const res = await t.request("/api/no-such-thing");
  assert.equal(res.status, 404);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.status, 404);
  assert.equal(body.code, "not_found");
  assert.equal(typeof body.type, "string");
  assert.equal(typeof body.title, "string");
  assert.equal(typeof body.detail, "string");
});

Deno.test("a method a route does not export answers 405 with Allow", async () => {
  await using t = await testApp();
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    const res = await t.request("/api/health", { method });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get("allow"), "GET");
    const body = await res.json();
    assert.equal(body.code, "method_not_allowed");
    assert.equal(body.status, 405);
  }
});

Deno.test("every response carries X-Request-Id and one JSON log line is written per request", async () => {
  await using t = await testApp();
  await t.request("/api/health", { headers: { "x-request-id": "req-12345678" } });
  await t.request("/api/nothing");
  const lines = t.logs.filter((l) => l.path);
  assert.equal(lines.length, 2);
  assert.equal(lines[0].requestId, "req-12345678");
  assert.equal(lines[0].status, 200);
  assert.equal(lines[1].status, 404);
  for (const line of lines) {
    for (const key of ["time", "requestId", "method", "path", "status", "ms"]) {
      assert.ok(key in line, key);
    }
  }
});

Deno.test("an unexpected exception is a 500 internal_error problem with no stack or message", async () => {
  await using t = await testApp();
  const manifest: Manifest = {
    middlewares: [],
    routes: [{
      pattern: "/api/boom",
      file: "api/boom.ts",
      module: {
        handler: {
          GET() {
            throw new Error("select secret from passwords where token = 'sk-live-123'");
          },
        },
      },
    }],
  };
  const app = createApp(t.deps, { manifest });
  const res = await app.request("/api/boom", { headers: { "x-request-id": "boom-request-1" } });
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.doesNotMatch(text, /secret|passwords|sk-live|at .*\.ts/);
  const body = JSON.parse(text);
  assert.equal(body.code, "internal_error");
  const logged = t.logs.find((l) => l.level === "error");
  assert.equal(logged?.requestId, "boom-request-1");
  assert.ok(app instanceof Hono);
});

Deno.test("a malformed configuration names its variable in one line", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "eighty" }, /^Invalid configuration: PORT /],
    [{ PORT: "70000" }, /^Invalid configuration: PORT /],
    [{ AI_PROVIDERS: "[{" }, /^Invalid configuration: AI_PROVIDERS is not valid JSON$/],
    [{ AI_PROVIDERS: '[{"name":"x"}]' }, /^Invalid configuration: AI_PROVIDERS /],
    [{ TMDB_BASE_URL: "ftp://x" }, /^Invalid configuration: TMDB_BASE_URL /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL /],
    [{ CATALOG_IMPORT_CRON: "every day" }, /^Invalid configuration: CATALOG_IMPORT_CRON /],
    [
      { CAPTCHA_SECRET: "s", CAPTCHA_PROVIDER: "recaptcha" },
      /^Invalid configuration: CAPTCHA_PROVIDER /,
    ],
    [
      { SUPABASE_URL: "https://x.supabase.co" },
      /^Invalid configuration: SUPABASE_PUBLISHABLE_KEY \(or SUPABASE_ANON_KEY\) /,
    ],
    [{ HTTP_SERVER: "hyper" }, /^Invalid configuration: HTTP_SERVER /],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (e: Error) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, message);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
  }
});

Deno.test("the defaults of README.md's Configuration", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8000);
  assert.equal(config.dataDir, "./data");
  assert.equal(config.kvPath, "./data/kv.sqlite3");
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.tmdb.baseUrl, "https://api.themoviedb.org/3");
  assert.equal(config.tmdb.imageBaseUrl, "https://image.tmdb.org/t/p");
  assert.deepEqual(config.aiProviders, []);
  assert.equal(config.catalogImportCron, "0 3 * * *");
  assert.equal(loadConfig({ CATALOG_IMPORT_CRON: "off" }).catalogImportCron, null);
  assert.equal(config.shutdownDrainMs, 10_000);
  assert.equal(loadConfig({ SHUTDOWN_DRAIN_MS: "1" }).shutdownDrainMs, 1);
  assert.throws(() => loadConfig({ SHUTDOWN_DRAIN_MS: "0" }), /SHUTDOWN_DRAIN_MS/);
  // Our own server on Deno's sockets (docs/faults.md); Deno.serve on request, and always on Deno Deploy.
  assert.equal(config.httpServer, "sockets");
  // Its name before "connections" meant other apps talking to this one is still read.
  assert.equal(loadConfig({ HTTP_SERVER: "connections" }).httpServer, "sockets");
  assert.equal(loadConfig({ HTTP_SERVER: "deno_serve" }).httpServer, "deno_serve");
  assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "d1" }).httpServer, "deno_serve");
  const single = loadConfig({ OPENAI_API_KEY: "k", AI_MODELS: "a, b" }).aiProviders;
  assert.deepEqual(single, [{
    name: "openai",
    baseUrl: "https://api.openai.com/v1",
    apiKey: "k",
    models: ["a", "b"],
  }]);
});

Deno.test("the JSON logger writes one line per entry with its time, errors to their own sink", () => {
  const out: string[] = [];
  const err: string[] = [];
  const log = createJsonLogger({
    sink: { write: (text) => out.push(text) },
    errors: { write: (text) => err.push(text) },
  });
  log({ level: "info", requestId: "r1", status: 200 });
  log({ level: "error", msg: "boom" });
  assert.equal(out.length, 1);
  assert.ok(out[0].endsWith("\n"));
  const line = JSON.parse(out[0]);
  assert.equal(line.requestId, "r1");
  assert.match(line.time, /^\d{4}-\d\d-\d\dT/);
  assert.equal(JSON.parse(err[0]).msg, "boom");
  log({});
  assert.deepEqual(Object.keys(JSON.parse(out[1])), ["time"]);
});
