/**
 * The child process of ./pglite_init.ts: initdb for the directory given as its argument, then
 * the migrations, and exit; the memory both took leaves with this process. The parent holds
 * the directory's lock while this runs and waits for it to end, so it opens it unlocked.
 */
import { PGlite } from "@electric-sql/pglite";
import { migrate, readMigrations } from "./migrate.ts";
import { openPgliteStore } from "./pglite.ts";
import { PGLITE_START_PARAMS } from "./pglite_params.ts";

const dataDir = Deno.args[0];
await (await PGlite.create({ dataDir, startParams: PGLITE_START_PARAMS })).close();
const store = await openPgliteStore({ dataDir, lock: false });
try {
  await migrate(store, await readMigrations());
} finally {
  await store.close();
}
