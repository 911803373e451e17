/**
 * PGlite alone in a process, for the memory benchmark: opens an initialised data directory
 * with our start parameters (or PGlite's defaults with `defaults`), runs one query, idles
 * 3 s and prints its RSS in MB. Usage: pglite_alone.ts DIR [defaults]
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_START_PARAMS } from "../../lib/platform/store/pglite_params.ts";

const [dir, mode] = Deno.args;
const db = await PGlite.create({
  dataDir: dir,
  startParams: mode === "defaults" ? PGlite.defaultStartParams : PGLITE_START_PARAMS,
});
await db.query("select count(*) from pg_class");
await new Promise((r) => setTimeout(r, 3000));
const status = await Deno.readTextFile("/proc/self/status");
console.log(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
await db.close();
