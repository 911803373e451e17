/** How the embedded Postgres is started: PGlite's defaults with a small buffer cache. */
import { PGlite } from "@electric-sql/pglite";

/**
 * PGlite's start parameters, with `shared_buffers` at 8 MB instead of Postgres's 128 MB: the
 * cache lives in WebAssembly memory, which never shrinks, and the operating system's file cache
 * still holds the data files (idle RSS 306 -> 176 MB for PGlite alone, measured; BENCHMARKS.md).
 * fsync stays PGlite's (-F); a killed process loses nothing the kernel already has.
 */
export const PGLITE_START_PARAMS: string[] = [
  ...PGlite.defaultStartParams,
  "-c",
  "shared_buffers=8MB",
];
