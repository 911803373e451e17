/** The night service of one app: its events' bus picked by the coordination (docs/nights.md). */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { localBus, type NightBus, postgresBus } from "./events.ts";
import { localScorer } from "./local_scorer.ts";
import { createNightService, type NightService } from "./service.ts";
import { nightStreams } from "./streams.ts";

/**
 * With COORDINATION=postgres, several instances share the database and a phone may follow the
 * night on another instance than the voter's: events go through LISTEN/NOTIFY. Otherwise one
 * process holds everything and they stay in it.
 */
function busOf(deps: AppDeps): NightBus {
  if (deps.config.coordination === "postgres" && deps.store.listen) {
    return postgresBus(deps.store, deps.log);
  }
  return localBus();
}

/** Builds the movie nights service from the app's dependencies. */
export function buildNightService(deps: AppDeps): NightService {
  const bus = busOf(deps);
  return createNightService(deps, {
    bus,
    streams: nightStreams({ clock: deps.clock, bus }),
    scorer: localScorer(deps),
  });
}
