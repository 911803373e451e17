/**
 * The my-services service (docs/availability.md): a user's region, providers and switches
 * (GET/PUT /api/me/services), and the providers the instance knows per region
 * (GET /api/providers), from stored data (and, for a region with none, its main services).
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { majorProviders } from "./major_providers.ts";
import { mineOnMovie } from "./mine_on_movie.ts";
import { readRegionProviders, type RegionProvider } from "./provider_catalog.ts";
import { readSettings, writeSettings } from "./settings_store.ts";
import type { ServiceSettings, SettingsChange } from "./settings.ts";

/** A chosen provider as GET /api/me/services shows it. */
interface ChosenProvider {
  id: number;
  name: string;
  logo: string;
}

/** The body of GET and PUT /api/me/services. */
export interface MyStreaming {
  region: string;
  providers: ChosenProvider[];
  onlyMine: boolean;
  emailAlerts: boolean;
}

/** What the routes, the lists, recommendations and the availability job ask. */
export interface MyStreamingService {
  /** The user's choices with provider names and logos (the defaults when none were made). */
  get(userId: string): Promise<MyStreaming>;
  /** Applies the named fields; answers as `get`. */
  put(userId: string, change: SettingsChange): Promise<MyStreaming>;
  /** The raw settings (ids only), the defaults when none were made. */
  settings(userId: string): Promise<ServiceSettings>;
  /**
   * Every provider stored for `region`, most movies first; while none is stored, the region's
   * main services from the list kept in the repository (`movies: 0`).
   */
  regionProviders(region: string): Promise<RegionProvider[]>;
  /** The names of `providerIds` that stream `catalogId` in `region` (stored data only). */
  mineOnMovie(
    catalogId: number,
    options: { region: string; providerIds: number[] },
  ): Promise<string[]>;
}

// The region lists are a scan of the stored providers: kept a few minutes per region, since
// they change only when a movie's providers are refreshed.
const REGION_CACHE_MS = 5 * 60_000;

/** Builds the service. */
export function createMyStreamingService(deps: AppDeps): MyStreamingService {
  const { store, clock, config } = deps;
  const imageBase = config.tmdb.imageBaseUrl;
  const cache = new Map<string, { at: number; list: Promise<RegionProvider[]> }>();

  function regionProviders(region: string): Promise<RegionProvider[]> {
    const now = clock.now();
    const hit = cache.get(region);
    if (hit && now - hit.at < REGION_CACHE_MS) return hit.list;
    const list = readRegionProviders(store, region, imageBase).then((stored) =>
      stored.length > 0 ? stored : majorProviders(region, imageBase)
    );
    cache.set(region, { at: now, list });
    list.catch(() => cache.delete(region));
    return list;
  }

  async function settings(userId: string): Promise<ServiceSettings> {
    return await readSettings(store, userId) ?? {
      region: config.tmdb.watchRegion,
      providerIds: [],
      onlyMine: false,
      emailAlerts: false,
    };
  }

  // Names and logos from the region's stored providers, else from its main services (a choice
  // made from the list before any movie of the region listed that service); an id neither
  // knows keeps its place with an empty name, which the website shows as its number.
  async function describe(s: ServiceSettings): Promise<MyStreaming> {
    const known = s.providerIds.length > 0
      ? new Map(
        [...majorProviders(s.region, imageBase), ...await regionProviders(s.region)]
          .map((p) => [p.id, p]),
      )
      : new Map<number, RegionProvider>();
    return {
      region: s.region,
      providers: s.providerIds.map((id) => {
        const p = known.get(id);
        return { id, name: p?.name ?? "", logo: p?.logo ?? "" };
      }),
      onlyMine: s.onlyMine,
      emailAlerts: s.emailAlerts,
    };
  }

  return {
    settings,
    regionProviders,
    mineOnMovie: (catalogId, options) => mineOnMovie(store, catalogId, options),
    get: async (userId) => describe(await settings(userId)),
    put: async (userId, change) =>
      describe(
        await writeSettings(store, userId, {
          change,
          defaultRegion: config.tmdb.watchRegion,
          now: clock.now(),
        }),
      ),
  };
}
