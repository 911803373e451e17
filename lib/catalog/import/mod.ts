/**
 * The catalog import (docs/catalog_import.md): popular pages and then missing or stale details,
 * through the shared external window, one run at a time, recorded in `catalog_imports`.
 */
export {
  type CatalogImportService,
  createCatalogImportService,
  DEFAULT_CONCURRENCY,
  failInterruptedImports,
  scheduledImport,
} from "./service.ts";
export { DEFAULT_PAGES, parseImportBody } from "./body.ts";
export { IMPORT_LOCK_TTL_MS, takeImportLock } from "./job.ts";
export { INTERRUPTED } from "@/lib/platform/jobs/interrupted.ts";
