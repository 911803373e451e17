import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { importsSettled } from "./helpers/catalog_imports.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const TOKEN = "admin-token-for-tests";
const PATH = "/api/admin/catalog-import";

async function world(options: { adminToken?: string | null; latencyMs?: number } = {}) {
  const fake = await startFakeTmdb({ latencyMs: options.latencyMs ?? 0 });
  const env: Record<string, string> = { ...tmdbEnv(fake) };
  if (options.adminToken !== null) env.ADMIN_TOKEN = options.adminToken ?? TOKEN;
  const t = await testApp({ env });
  return {
    t,
    fake,
    post: (body?: string, headers: Record<string, string> = { "x-admin-token": TOKEN }) =>
      t.request(PATH, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      }),
    get: (headers: Record<string, string> = { "x-admin-token": TOKEN }) =>
      t.request(PATH, { headers }),
    async [Symbol.asyncDispose]() {
      // Background runs end before the app and the fake go away.
      await importsSettled(t.deps);
      await t[Symbol.asyncDispose]();
      await fake.close();
    },
  };
}

async function assertProblem(res: Response, status: number, code: string) {
  assert.equal(res.status, status);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  return body;
}

Deno.test("the admin import answers 401 unauthorized without the header or with a wrong token, on POST and GET", async () => {
  await using w = await world();
  await assertProblem(await w.post(undefined, {}), 401, "unauthorized");
  await assertProblem(await w.post(undefined, { "x-admin-token": "wrong" }), 401, "unauthorized");
  await assertProblem(
    await w.post(undefined, { "x-admin-token": `${TOKEN}x` }),
    401,
    "unauthorized",
  );
  await assertProblem(await w.post(undefined, { "x-admin-token": "" }), 401, "unauthorized");
  await assertProblem(await w.get({}), 401, "unauthorized");
  await assertProblem(await w.get({ "x-admin-token": "wrong" }), 401, "unauthorized");
  // A refused request never starts a run.
  assert.equal(w.fake.requests.length, 0);
  assert.deepEqual(await (await w.get()).json(), { runs: [] });
});

Deno.test("with ADMIN_TOKEN unset the admin import answers 401 whatever the header says", async () => {
  await using w = await world({ adminToken: null });
  assert.equal(w.t.config.adminToken, undefined);
  await assertProblem(await w.post(undefined, {}), 401, "unauthorized");
  await assertProblem(await w.post(undefined, { "x-admin-token": "" }), 401, "unauthorized");
  await assertProblem(
    await w.post(undefined, { "x-admin-token": "anything" }),
    401,
    "unauthorized",
  );
  await assertProblem(await w.get({ "x-admin-token": "undefined" }), 401, "unauthorized");
  assert.equal(w.fake.requests.length, 0);
});

Deno.test("the admin import answers 400 invalid_body for bodies other than empty or {pages: 1-25}", async () => {
  await using w = await world();
  for (
    const body of [
      "not json",
      "{",
      '{"pages":0}',
      '{"pages":26}',
      '{"pages":"3"}',
      '{"pages":2.5}',
      '{"pages":null}',
      '{"page":3}',
      '{"pages":3,"force":true}',
      "[]",
      "null",
      "3",
    ]
  ) {
    await assertProblem(await w.post(body), 400, "invalid_body");
  }
  assert.deepEqual(await (await w.get()).json(), { runs: [] });
  assert.equal(w.fake.requests.length, 0);
});

Deno.test("POST starts a run and answers 202 at once; GET lists it with its counts once it ends", async () => {
  await using w = await world();
  const res = await w.post();
  assert.equal(res.status, 202);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), ["importId", "status", "success"]);
  assert.equal(body.success, true);
  assert.equal(body.status, "running");
  assert.match(body.importId, /^[0-9a-f-]{36}$/);
  await importsSettled(w.t.deps);

  const list = await w.get();
  assert.equal(list.status, 200);
  const { runs } = await list.json();
  assert.equal(runs.length, 1);
  const [run] = runs;
  assert.deepEqual(Object.keys(run).sort(), [
    "detailsFetched",
    "errors",
    "finishedAt",
    "id",
    "lastError",
    "moviesSeen",
    "moviesUpserted",
    "pages",
    "startedAt",
    "status",
    "trigger",
  ]);
  assert.equal(run.id, body.importId);
  assert.equal(run.trigger, "manual");
  assert.equal(run.status, "succeeded");
  // Default 5 pages; the fake serves 3 full ones and empty pages after them.
  assert.equal(run.pages, 5);
  assert.equal(run.moviesSeen, 60);
  assert.equal(run.moviesUpserted, 60);
  assert.equal(run.detailsFetched, 60);
  assert.equal(run.errors, 0);
  assert.equal(run.lastError, null);
  assert.ok(Date.parse(run.finishedAt) >= Date.parse(run.startedAt));
});

Deno.test("an empty body with no content type and {pages: 2} both start runs", async () => {
  await using w = await world();
  const bare = await w.t.request(PATH, { method: "POST", headers: { "x-admin-token": TOKEN } });
  assert.equal(bare.status, 202);
  await importsSettled(w.t.deps);
  const two = await w.post('{"pages":2}');
  assert.equal(two.status, 202);
  await importsSettled(w.t.deps);
  const pages = w.fake.requests.filter((r) => r.path === "/movie/popular").map((r) =>
    r.query.get("page")
  );
  assert.deepEqual(pages.slice(5).sort(), ["1", "2"]);
  const { runs } = await (await w.get()).json();
  assert.deepEqual(runs.map((r: { pages: number }) => r.pages).sort(), [2, 5]);
});

Deno.test("a second POST while a run is going answers 409 import_running", async () => {
  await using w = await world({ latencyMs: 100 });
  const first = await w.post('{"pages":1}');
  assert.equal(first.status, 202);
  await assertProblem(await w.post('{"pages":1}'), 409, "import_running");
  const { runs } = await (await w.get()).json();
  assert.equal(runs.length, 1);
  assert.equal(runs[0].status, "running");
  assert.equal(runs[0].finishedAt, null);
  await importsSettled(w.t.deps);
  // Once it has ended, the next one starts.
  assert.equal((await w.post('{"pages":1}')).status, 202);
});

Deno.test("the admin import answers 405 with Allow for other methods", async () => {
  await using w = await world();
  const res = await w.t.request(PATH, { method: "DELETE", headers: { "x-admin-token": TOKEN } });
  await assertProblem(res, 405, "method_not_allowed");
  assert.equal(res.headers.get("allow"), "GET, POST");
});

Deno.test("POST with an endless chunked body answers 400 invalid_body after reading 16 KiB at most", async () => {
  await using w = await world();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024).fill(0x20));
    },
  });
  const res = await w.t.request(PATH, {
    method: "POST",
    headers: { "x-admin-token": TOKEN, "content-type": "application/json" },
    body,
  });
  await assertProblem(res, 400, "invalid_body");
  assert.ok(pulled <= 20, `read ${pulled} chunks`);
});

Deno.test("after 20 wrong admin tokens from one address within 15 minutes every request from it answers 429", async () => {
  const fake = await startFakeTmdb();
  const clock = new FakeClock();
  await using t = await testApp({
    clock,
    env: { ...tmdbEnv(fake), ADMIN_TOKEN: TOKEN, CLIENT_IP_HEADER: "x-forwarded-for" },
  });
  const get = (token: string, ip: string) =>
    t.request(PATH, { headers: { "x-admin-token": token, "x-forwarded-for": ip } });
  try {
    // The right token does not count.
    for (let i = 0; i < 25; i++) assert.equal((await get(TOKEN, "192.0.2.1")).status, 200);
    for (let i = 0; i < 20; i++) {
      await assertProblem(await get(`wrong-${i}`, "192.0.2.1"), 401, "unauthorized");
    }
    const limited = await get("wrong-20", "192.0.2.1");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    await assertProblem(limited, 429, "rate_limited");
    // Even the right token, so the answer tells a guesser nothing.
    await assertProblem(await get(TOKEN, "192.0.2.1"), 429, "rate_limited");
    assert.equal((await get(TOKEN, "192.0.2.2")).status, 200, "another address is apart");
    clock.advance(15 * 60_000);
    assert.equal((await get(TOKEN, "192.0.2.1")).status, 200);
  } finally {
    await fake.close();
  }
});
