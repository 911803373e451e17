/**
 * The recommendations' "only what I can stream" filter of a user (docs/availability.md): their
 * services' names and region for the prompt, and a check of picks against each movie's
 * providers, fetched through the shared window when older than 7 days (the catalog's rule).
 */
import { readStoredProviders } from "../catalog/providers.ts";
import type { Catalog } from "../catalog/types.ts";
import type { AppDeps } from "../platform/deps.ts";
import { streamingIn } from "../catalog/availability/new_offers.ts";
import type { StreamingFilter } from "./streaming.ts";
import type { MyStreamingService } from "../catalog/my_streaming/service.ts";

// Picks checked at once: a round's 20-30 ids without filling the window.
const AT_ONCE = 4;

/** The filter of `userId`, or null when onlyMine is off or no service is chosen. */
export async function streamingFilter(
  deps: AppDeps,
  options: { userId: string; catalog: Catalog; myStreaming: MyStreamingService },
): Promise<StreamingFilter | null> {
  const mine = await options.myStreaming.get(options.userId);
  if (!mine.onlyMine || mine.providers.length === 0) return null;
  const ids = new Set(mine.providers.map((p) => p.id));
  const region = mine.region;
  async function available(id: number): Promise<boolean> {
    try {
      // Refreshes stale providers through the window; on failure the stored ones count.
      await options.catalog.providers(id, region);
    } catch {
      // A movie whose providers cannot be read is judged on what is stored, if anything.
    }
    const stored = await readStoredProviders(deps.store, id);
    if (!stored) return false;
    return [...streamingIn(stored.results, region).keys()].some((p) => ids.has(p));
  }
  return {
    names: mine.providers.map((p) => p.name || `provider ${p.id}`),
    region,
    async keep(candidates) {
      const kept = new Set<number>();
      const queue = [...candidates];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          if (await available(id)) kept.add(id);
        }
      };
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
      return kept;
    },
  };
}
