import assert from "node:assert/strict";
import { DataDirInUse, lockDataDir } from "../lib/platform/store/dir_lock.ts";
import { spawnServer } from "./helpers/process.ts";

Deno.test("a data directory lock refuses a second holder, naming its pid, until released", async () => {
  const dir = await Deno.makeTempDir({ prefix: "movies-lock-" });
  try {
    const first = await lockDataDir(`${dir}/pg`);
    await assert.rejects(lockDataDir(`${dir}/pg`), (error) => {
      assert.ok(error instanceof DataDirInUse);
      assert.equal(error.holderPid, Deno.pid);
      assert.match(error.message, new RegExp(`${dir}/pg .*pid ${Deno.pid}`));
      return true;
    });
    first.release();
    (await lockDataDir(`${dir}/pg`)).release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a second server on one DATA_DIR refuses to start with one line; after kill -9 of the first a new one starts",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "movies-lock-" });
    const env = { DATA_DIR: dataDir };
    try {
      await using first = await spawnServer(env);
      assert.ok(first.url, first.lines.join("\n"));
      assert.equal(await fetch(`${first.url}/api/health`).then((r) => r.text()), '{"status":"ok"}');

      await using second = await spawnServer(env);
      const status = await second.exited;
      assert.equal(second.url, "");
      assert.equal(status.code, 1);
      const printed = second.lines.filter((line) => line.trim());
      assert.equal(printed.length, 1, printed.join("\n"));
      assert.match(printed[0], new RegExp(`${dataDir}/pg .*\\(pid ${first.pid}\\)`));
      // The first one is untouched.
      assert.equal((await fetch(`${first.url}/api/health`)).status, 200);

      // kill -9: the OS drops the lock with the process, so no stale lock blocks the next start.
      first.kill("SIGKILL");
      await first.exited;
      await using third = await spawnServer(env);
      assert.ok(third.url, third.lines.join("\n"));
      assert.equal((await fetch(`${third.url}/api/health`)).status, 200);
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
