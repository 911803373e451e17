/**
 * SIGTERM (docs/faults.md): the server stops accepting, lets in-flight requests finish
 * (up to 10 s), releases the KV leases it holds and exits 0. Real processes on the embedded
 * store, so the KV file and the data directory outlive the first one.
 */
import assert from "node:assert/strict";
import { type FakeAi, providersEnv, startFakeAi } from "./helpers/fake_ai.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const ROOT = new URL("../", import.meta.url);

interface Running {
  url: string;
  child: Deno.ChildProcess;
  output: string[];
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function start(dataDir: string, env: Record<string, string>): Promise<Running> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT.pathname,
    env: { NO_COLOR: "1", PORT: String(port), SITE_URL: url, DATA_DIR: dataDir, ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipeTo(new WritableStream({ write: (c) => void output.push(decoder.decode(c)) }))
      .catch(() => {});
  }
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${url}/api/health`);
      await res.body?.cancel();
      if (res.status === 200) return { url, child, output };
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not start:\n${output.join("")}`);
}

async function signedIn(url: string): Promise<string> {
  const credentials = { email: "shutdown@example.test", password: "a shutdown passphrase" };
  const signup = await fetch(`${url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  await signup.body?.cancel();
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  return (await res.json()).access_token;
}

Deno.test({
  name: "SIGTERM lets a slow request finish, refuses new connections and exits 0",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "movies-shutdown-" });
    await using tmdb = await startFakeTmdb({ latencyMs: 2_000 });
    const server = await start(dataDir, { ...tmdbEnv(tmdb), CATALOG_IMPORT_CRON: "off" });
    try {
      const slow = fetch(`${server.url}/api/movies/84892`);
      await new Promise((r) => setTimeout(r, 500));
      server.child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 200));
      await assert.rejects(fetch(`${server.url}/api/health`));
      const answered = await slow;
      assert.equal(answered.status, 200);
      assert.equal((await answered.json()).id, 84892);
      const status = await server.child.status;
      assert.equal(status.code, 0, server.output.join(""));
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "SIGTERM releases a generation's lease that outlives the drain (SHUTDOWN_DRAIN_MS, 1 s here), so the next start is not 409",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "movies-shutdown-" });
    await using tmdb = await startFakeTmdb();
    await using ai: FakeAi = startFakeAi({ fallback: () => ({ delayMs: 60_000, content: "{}" }) });
    const env = {
      ...tmdbEnv(tmdb),
      ...providersEnv([{ name: "slow", baseUrl: ai.baseUrl }]),
      CATALOG_IMPORT_CRON: "off",
      // The generation waits 60 s for its model: any drain is outlived, so 1 s proves what 10 s did.
      SHUTDOWN_DRAIN_MS: "1000",
    };
    let server = await start(dataDir, env);
    try {
      const token = await signedIn(server.url);
      const auth = { authorization: `Bearer ${token}` };
      const add = await fetch(`${server.url}/api/watched`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ catalogId: 84892 }),
      });
      assert.equal(add.status, 200);
      const generating = fetch(`${server.url}/api/recommend`, { headers: auth }).catch((e) => e);
      while (ai.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
      const stopped = performance.now();
      server.child.kill("SIGTERM");
      assert.equal((await server.child.status).code, 0, server.output.join(""));
      assert.ok(performance.now() - stopped < 11_000, "the drain is bounded");
      await generating;

      server = await start(dataDir, env);
      ai.fallback = () => ({ status: 503, body: { error: { message: "down" } } });
      const again = await fetch(`${server.url}/api/recommend`, { headers: auth });
      const body = await again.json();
      assert.notEqual(again.status, 409, JSON.stringify(body));
      assert.notEqual(body.code, "generation_in_progress");
    } finally {
      server.child.kill("SIGTERM");
      await server.child.status;
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
