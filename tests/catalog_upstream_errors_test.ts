/**
 * TMDB failures as problems: a bad body 502, no credentials 500, an outage 500; the key never
 * logged.
 */
import assert from "node:assert/strict";
import { createCatalogService } from "../lib/catalog/service.ts";
import { Problem } from "../lib/core/problem.ts";
import { getJson, testApp } from "./helpers/app.ts";
import { startFakeTmdb, TMDB_NOT_FOUND, tmdbEnv } from "./helpers/fake_tmdb.ts";

Deno.test("a body that is not the expected shape is 502 upstream_bad_response", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (
    const bad of [
      () => Response.json({ page: 1, results: [{ id: "550", title: 5 }] }),
      () => Response.json({ unexpected: true }),
      () => new Response("<html>maintenance</html>", { status: 200 }),
    ]
  ) {
    fake.override = bad;
    const res = await getJson(t, "/api/movies/search?q=dune");
    assert.equal(res.status, 502);
    assert.equal(res.body.code, "upstream_bad_response");
  }
  fake.override = () => Response.json({ id: 550, title: "No credits appended" });
  const detail = await getJson(t, "/api/movies/550");
  assert.equal(detail.status, 502);
  assert.equal(detail.body.code, "upstream_bad_response");
});

Deno.test("missing credentials are 500 catalog_not_configured, before any request", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: { TMDB_BASE_URL: fake.baseUrl } });
  for (const path of ["/api/movies/search?q=dune", "/api/movies/550", "/api/movies/popular"]) {
    const res = await getJson(t, path);
    assert.equal(res.status, 500, path);
    assert.equal(res.body.code, "catalog_not_configured", path);
  }
  assert.equal(fake.requests.length, 0);
});

Deno.test("an upstream outage, error status or timeout is 500 upstream_error; the key is never logged", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json({ status_code: 46 }, { status: 503 });
  const unavailable = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(unavailable.status, 500);
  assert.equal(unavailable.body.code, "upstream_error");
  fake.override = () => Response.json(TMDB_NOT_FOUND, { status: 404 });
  assert.equal((await getJson(t, "/api/movies/search?q=dune")).body.code, "upstream_error");

  await using down = await testApp({
    env: { ...tmdbEnv(fake), TMDB_BASE_URL: "http://127.0.0.1:9/3" },
  });
  const refused = await getJson(down, "/api/movies/search?q=dune");
  assert.equal(refused.status, 500);
  assert.equal(refused.body.code, "upstream_error");
  assert.ok(!JSON.stringify(refused.body).includes("test-api-key"));
  assert.ok(down.logs.some((l) => l.code === "upstream_error"));
  assert.ok(!JSON.stringify(down.logs).includes("test-api-key"));

  fake.override = undefined;
  fake.latencyMs = 300;
  const catalog = createCatalogService(t.deps, { timeoutMs: 50 });
  await assert.rejects(
    catalog.search("dune", { wait: false }),
    (e) => e instanceof Problem && e.status === 500 && e.code === "upstream_error",
  );
});
