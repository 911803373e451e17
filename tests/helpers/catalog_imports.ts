/**
 * Waiting for background imports in tests: an import runs on after its 202, so a test that
 * ends (or reads the store) first waits for every run started through a tracked service.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { CatalogImportService } from "@/lib/catalog/import/mod.ts";

const inflight = new WeakMap<AppDeps, Set<Promise<unknown>>>();

/** `service` with every run it starts counted under `deps` until it ends. */
export function trackImports(deps: AppDeps, service: CatalogImportService): CatalogImportService {
  let set = inflight.get(deps);
  if (!set) inflight.set(deps, set = new Set());
  const runs = set;
  return {
    ...service,
    async start(options) {
      const started = await service.start(options);
      runs.add(started.done);
      started.done.finally(() => runs.delete(started.done));
      return started;
    },
  };
}

/** Resolves once every run tracked under `deps` has finished. */
export async function importsSettled(deps: AppDeps): Promise<void> {
  for (let set = inflight.get(deps); set && set.size > 0; set = inflight.get(deps)) {
    await Promise.allSettled([...set]);
  }
}
