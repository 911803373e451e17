/**
 * main.ts as Deno Deploy runs it (docs/faults.md): DATABASE_URL set, the KV given by the
 * platform (here in memory), AUTH_SIGNING_KEY from the environment, and a DATA_DIR it may not
 * write to. The server runs as a real process WITHOUT write permission, so any write to local
 * disk fails it, and with an import map that makes PGlite throw on import, so loading the
 * embedded store fails it too. It must serve health, a detail, a sign-in and a list write.
 */
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { generatePrivateJwk } from "../lib/identity/auth/signing_key.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { TEST_DATABASE_URL } from "./helpers/store.ts";

const ROOT = new URL("../", import.meta.url);

/** deno.json's imports with PGlite replaced by a module that throws when loaded. */
async function importMapWithoutPglite(dir: string): Promise<string> {
  const poison = `${dir}/pglite_forbidden.ts`;
  await Deno.writeTextFile(poison, 'throw new Error("PGlite was imported");\n');
  const imports: Record<string, string> = { ...denoJson.imports };
  imports["@electric-sql/pglite"] = new URL(`file://${poison}`).href;
  for (const [key, target] of Object.entries(imports)) {
    if (target.startsWith("./")) imports[key] = new URL(target, ROOT).href;
  }
  const map = `${dir}/import_map.json`;
  await Deno.writeTextFile(map, JSON.stringify({ imports }));
  return map;
}

async function waitForHealth(url: string, child: Deno.ChildProcess): Promise<void> {
  const exited = child.status.then((s) => s);
  for (let i = 0; i < 300; i++) {
    const done = await Promise.race([exited, new Promise((r) => setTimeout(r, 100, null))]);
    if (done) throw new Error(`the server exited with ${JSON.stringify(done)}`);
    try {
      const response = await fetch(`${url}/api/health`);
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
  }
  throw new Error("the server did not become healthy in 30 s");
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test({
  name:
    "main.ts serves on PostgreSQL with the platform KV, writing nothing locally and never loading PGlite",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = openPostgresStore(TEST_DATABASE_URL!, { max: 1 });
    const dbName = `movies_deploy_${crypto.randomUUID().slice(0, 8)}`;
    await server.exec(`create database ${dbName}`);
    const databaseUrl = new URL(TEST_DATABASE_URL!);
    databaseUrl.pathname = `/${dbName}`;
    const work = await Deno.makeTempDir({ prefix: "movies-deploy-" });
    const dataDir = `${work}/data`;
    await Deno.mkdir(dataDir, { mode: 0o555 });
    await using tmdb = await startFakeTmdb();
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const stderr: string[] = [];
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-net",
        "--allow-env",
        "--allow-read",
        "--allow-sys",
        `--import-map=${await importMapWithoutPglite(work)}`,
        "main.ts",
      ],
      cwd: ROOT.pathname,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
        NO_COLOR: "1",
        PORT: String(port),
        SITE_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl.href,
        DENO_KV_PATH: ":memory:",
        AUTH_SIGNING_KEY: JSON.stringify(await generatePrivateJwk()),
        CATALOG_IMPORT_CRON: "0 3 * * *",
        ...tmdbEnv(tmdb),
      },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const decoder = new TextDecoder();
    const reading = child.stderr.pipeTo(
      new WritableStream({ write: (chunk) => void stderr.push(decoder.decode(chunk)) }),
    );
    try {
      await waitForHealth(url, child).catch((error) => {
        throw new Error(`${error.message}\n${stderr.join("")}`);
      });
      const detail = await fetch(`${url}/api/movies/84892`);
      assert.equal(detail.status, 200);
      assert.equal((await detail.json()).id, 84892);

      const credentials = { email: "deploy@example.test", password: "a deploy test passphrase" };
      const signup = await fetch(`${url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(credentials),
      });
      assert.equal(signup.status, 201, await signup.text());
      const signIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(credentials),
      });
      assert.equal(signIn.status, 200);
      const { access_token: token } = await signIn.json();
      const write = await fetch(`${url}/api/watched`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ catalogId: 84892 }),
      });
      assert.equal(write.status, 200, await write.text());
      const list = await fetch(`${url}/api/watched`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual((await list.json()).movies.map((m: { catalogId: number }) => m.catalogId), [
        84892,
      ]);
      assert.deepEqual([...Deno.readDirSync(dataDir)], [], "the data directory was written to");
      assert.doesNotMatch(stderr.join(""), /PGlite was imported|PermissionDenied/);
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await reading.catch(() => {});
      await server.exec(`drop database ${dbName} with (force)`);
      await server.close();
      await Deno.remove(work, { recursive: true });
    }
  },
});
