/**
 * The catalog import (contract section 6): popular pages and then missing or stale details,
 * through the shared external window, one run at a time, recorded in `catalog_imports`.
 * The parts live in lib/import/.
 */
export {
  type CatalogImportOptions,
  type CatalogImportService,
  createCatalogImportService,
  DEFAULT_CONCURRENCY,
  failInterruptedImports,
  importsSettled,
  scheduledImport,
  type StartedImport,
} from "./import/service.ts";
export { adminTokenMatches, requireAdminToken } from "./import/admin_token.ts";
export { DEFAULT_PAGES, MAX_PAGES, parseImportBody, readImportBody } from "./import/body.ts";
export { IMPORT_LOCK_KEY, IMPORT_LOCK_TTL_MS, takeImportLock } from "./import/lock.ts";
export type { RunOutcome } from "./import/run.ts";
export { type ImportRun, type ImportTrigger, INTERRUPTED } from "./import/runs.ts";
