/**
 * 10,000 generated requests over /api, /auth/v1 and the pages, with real and forged tokens,
 * malformed bodies, odd paths and queries: no 5xx, every /api error a problem, no stack or SQL
 * in any body. Seeded (FUZZ_SEED to replay a run); `deno task chaos` runs a longer one.
 */
import assert from "node:assert/strict";
import { hashPassword } from "../lib/identity/auth/passwords.ts";
import { manifest } from "../routes.gen.ts";
import { testApp } from "./helpers/app.ts";
import { providersEnv, startFakeAi } from "./helpers/fake_ai.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { fuzzer, judge, seeded } from "./helpers/fuzz.ts";
import { modelLike, POOL, seedMovies } from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";

const COUNT = 10_000;
const PARALLEL = 8;

Deno.test("10,000 fuzzed requests over /api, /auth/v1 and the pages: no 5xx, every /api error a problem, no stack or SQL in a body", async () => {
  const seed = Number(Deno.env.get("FUZZ_SEED") ?? "19");
  await using tmdb = await startFakeTmdb();
  await using ai = startFakeAi({ fallback: modelLike(POOL) });
  const adminToken = "fuzz-admin-token-0123456789";
  await using t = await testApp({
    env: {
      ...tmdbEnv(tmdb),
      ...providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]),
      ADMIN_TOKEN: adminToken,
    },
  });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps, { email: "fuzz@example.test" });
  await t.store.query("update auth.users set encrypted_password = $2 where id = $1", [
    user.id,
    await hashPassword("a long fuzzing passphrase"),
  ]);
  const signIn = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: "a long fuzzing passphrase" }),
  });
  assert.equal(signIn.status, 200);
  const session = await signIn.json();

  const next = fuzzer({
    routes: manifest.routes.map((r) => ({
      pattern: r.pattern,
      methods: Object.keys(r.module.handler ?? { GET: true }),
    })),
    token: session.access_token,
    adminToken,
    refreshToken: session.refresh_token,
  }, seeded(seed));
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let sent = 0; sent < COUNT; sent += PARALLEL) {
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      const request = next();
      const res = await t.request(request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      for (const problem of await judge(request, res)) {
        failures.push(`${problem}\n  ${JSON.stringify(request).slice(0, 400)}`);
      }
    }));
  }
  assert.deepEqual(failures.slice(0, 10), [], `seed ${seed}: ${failures.length} failures`);
  // The run reached past the front door: successes, client errors and sign-ins all happened.
  assert.ok((statuses.get(200) ?? 0) > 500, JSON.stringify([...statuses]));
  assert.ok((statuses.get(400) ?? 0) > 300, JSON.stringify([...statuses]));
  assert.ok((statuses.get(401) ?? 0) > 100, JSON.stringify([...statuses]));
  assert.equal(t.logs.filter((l) => l.level === "error").length, 0, "no error logged");
});
