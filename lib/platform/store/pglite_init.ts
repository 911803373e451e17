/**
 * Creates an embedded data directory (initdb, then the migrations) in a process of its own.
 * PGlite's initdb runs a second Postgres instance whose few hundred MB the process never gives
 * back (a server that initialised its directory idled at ~600 MB, one that found it ready at
 * ~180 MB), and applying the migrations grows the WebAssembly memory by another ~40 MB that
 * never shrinks either; so the server has both done here and opens the finished directory.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_START_PARAMS } from "./pglite_params.ts";

/** Whether `dataDir` holds an initialised cluster. */
async function isInitialised(dataDir: string): Promise<boolean> {
  try {
    return (await Deno.stat(`${dataDir}/PG_VERSION`)).isFile;
  } catch {
    return false;
  }
}

/** Prepares `dataDir` in a child Deno process; in this one where that is impossible. */
export async function initialiseInChild(dataDir: string): Promise<void> {
  if (await isInitialised(dataDir)) return;
  if (!/^deno(\.exe)?$/.test(Deno.execPath().split(/[\\/]/).pop() ?? "")) {
    // A compiled binary cannot run another module: initdb here (more memory, same result); the
    // server applies the migrations itself.
    await (await PGlite.create({ dataDir, startParams: PGLITE_START_PARAMS })).close();
    return;
  }
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./pglite_prepare.ts", import.meta.url).pathname, dataDir],
    cwd: new URL("../../../", import.meta.url).pathname,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `initialising the embedded store in ${dataDir} failed: ${new TextDecoder().decode(stderr)}`,
    );
  }
}
