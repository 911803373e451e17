/** Picks the engine from the configuration; each loads lazily, so only the one used is paid for. */
import type { Store } from "./types.ts";

/** Opens the store the configuration names: postgres.js for a URL, else PGlite in `dataDir`. */
export async function openStore(
  options: { databaseUrl?: string; dataDir?: string },
): Promise<Store> {
  if (options.databaseUrl) {
    const { openPostgresStore } = await import("./postgres.ts");
    return openPostgresStore(options.databaseUrl);
  }
  const { openPgliteStore } = await import("./pglite.ts");
  return await openPgliteStore(options.dataDir ? { dataDir: options.dataDir } : {});
}
