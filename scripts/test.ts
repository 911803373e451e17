/**
 * `deno task test`: the whole suite, its files two at a time (docs/testing.md). Builds the
 * embedded store's template once for the run (kept on disk, keyed by the migrations), gives each
 * test file a PostgreSQL database of its own copied from a migrated template when
 * TEST_DATABASE_URL is set, runs `deno test --parallel`, and drops the run's databases after.
 *
 * `deno task test:unit` (`--unit`): only the files that need no store, browser or child process,
 * in seconds. Other arguments (files, folders, `--filter`) go to `deno test` as they are.
 */
import { unitTestFiles } from "./test_tiers.ts";
import { embeddedTemplate } from "../tests/helpers/store.ts";
import { dropRunDatabases, preparePostgresTemplate } from "../tests/helpers/store_templates.ts";

const ROOT = new URL("../", import.meta.url);

async function main(args: string[]): Promise<number> {
  const unit = args.includes("--unit");
  const rest = args.filter((a) => a !== "--unit");
  const env: Record<string, string> = {};
  const serverUrl = Deno.env.get("TEST_DATABASE_URL") || undefined;
  let runId: string | undefined;
  if (!unit) {
    // The first file would build the template; built here, no two files build it at once.
    await embeddedTemplate();
    if (serverUrl) {
      runId = crypto.randomUUID().replaceAll("-", "").slice(0, 10);
      try {
        await preparePostgresTemplate(serverUrl, runId);
        env.TEST_RUN_ID = runId;
      } catch (error) {
        // Without CREATE DATABASE the files share TEST_DATABASE_URL's database, one at a time.
        console.error(
          `test: no database per file (${(error as Error).message}); files run in turn`,
        );
        runId = undefined;
      }
    }
  }
  const files = unit ? await unitTestFiles(new URL("tests/", ROOT)) : [];
  const targets = rest.some((a) => !a.startsWith("-")) ? [] : unit ? files : ["tests/"];
  const parallel = unit || runId || !serverUrl ? ["--parallel"] : [];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-check=remote", ...parallel, ...rest, ...targets],
    cwd: ROOT,
    env,
    stdin: "null",
  }).spawn();
  // Ctrl-C reaches the child as well; the run's databases are still dropped after it ends.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  const { code } = await child.status;
  Deno.removeSignalListener("SIGINT", ignore);
  if (serverUrl && runId) await dropRunDatabases(serverUrl, runId);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
