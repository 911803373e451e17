/** The app's services, built once per app from its dependencies and shared by every request. */
import { createInviteService, type InviteService } from "../identity/access/service.ts";
import { type AuthService, createAuthService } from "../identity/auth/service.ts";
import { type Catalog, createCatalogService } from "../catalog/mod.ts";
import { userPrefetch } from "../catalog/user_prefetch.ts";
import {
  type ConnectionsService,
  createConnectionsService,
  createGuessLimit,
} from "../connections/webhooks/mod.ts";
import {
  createTraktAuthService,
  type TraktAuthService,
} from "../connections/trakt/auth_service.ts";
import { createTraktWritesService, type TraktWritesService } from "../connections/trakt/writes.ts";
import { createFeedsService, type FeedsService } from "../connections/feeds/mod.ts";
import {
  type CalendarFeedService,
  createCalendarFeedService,
} from "../connections/feeds/calendar_feed.ts";
import { createSeerrService, type SeerrService } from "../connections/seerr/mod.ts";
import {
  createWatchingNowService,
  type WatchingNowService,
} from "../connections/trakt/watching_now.ts";
import {
  AVAILABILITY_LOCK_TTL_MS,
  type AvailabilityService,
  createAvailabilityService,
  failInterruptedAvailabilityRuns,
} from "../catalog/availability/mod.ts";
import {
  askingAfterSearch,
  createDetailsService,
  DETAILS_LOCK_TTL_MS,
  type DetailsService,
  failInterruptedDetailsRuns,
} from "../catalog/details/mod.ts";
import {
  type AlertsService,
  createAlertsService,
} from "../catalog/notifications/channels/service.ts";
import {
  createDeliveryWorker,
  type DeliveryWorker,
} from "../catalog/notifications/delivery/mod.ts";
import type { AppDeps } from "../platform/deps.ts";
import { createDiaryService, type DiaryService } from "../library/diary/mod.ts";
import { type CalendarService, createCalendarService } from "../library/calendar/mod.ts";
import {
  createHistoryImportService,
  type HistoryImportService,
  RUN_LEASE_MS,
} from "../library/history/import/service.ts";
import { offThreadReader } from "../library/history/import/read_off_thread.ts";
import {
  type CatalogImportService,
  createCatalogImportService,
  failInterruptedImports,
  IMPORT_LOCK_TTL_MS,
} from "../catalog/import/mod.ts";
import type { RestartHook } from "../platform/jobs/restart.ts";
import { createEntriesService, type EntriesService } from "../library/entries/mod.ts";
import {
  createPersonalTokenService,
  type PersonalTokenService,
} from "../identity/personal_tokens/mod.ts";
import { createMyStreamingService, type MyStreamingService } from "../catalog/my_streaming/mod.ts";
import { streamingFilter } from "../recommend/streaming_filter.ts";
import { createRecommendService, type RecommendService } from "../recommend/mod.ts";
import { createTonightService, type TonightService } from "../recommend/tonight/mod.ts";
import { createLocalRecommendService, type LocalRecommendService } from "../recommend/local/mod.ts";
import { buildNightService, type NightService } from "../recommend/night/mod.ts";
import {
  createListsService,
  createProfilesService,
  type ListsService,
  type ProfilesService,
} from "../library/lists/mod.ts";

/** Every service a handler can call, on `c.var.services`. */
export interface Services {
  auth: AuthService;
  /** The availability job: refreshes My List providers, notifies (lib/catalog/availability). */
  availability: AvailabilityService;
  /** The alerts section: kinds and channels, their test button (lib/catalog/notifications/channels). */
  alerts: AlertsService;
  /** The alert delivery queue's worker; main.ts starts it (lib/catalog/notifications/delivery). */
  alertDelivery: DeliveryWorker;
  catalog: Catalog;
  /** The details job: full details for every film a user has (lib/catalog/details). */
  details: DetailsService;
  /** Media-server webhooks: the URL, settings, receivers, recent events (lib/connections/webhooks). */
  connections: ConnectionsService;
  /** Trakt's writes: history, ratings, watchlist, scrobbles, check-ins (lib/connections/trakt). */
  traktWrites: TraktWritesService;
  /** My List as the feed Radarr's Custom Lists read (lib/connections/feeds). */
  feeds: FeedsService;
  /** The release calendar as an iCal feed, by the same secret (lib/connections/feeds). */
  calendarFeed: CalendarFeedService;
  /** The user's Seerr and the Request button (lib/connections/seerr). */
  seerr: SeerrService;
  /** "Watching now" on the home page and public profiles (lib/connections/trakt). */
  watchingNow: WatchingNowService;
  catalogImport: CatalogImportService;
  diary: DiaryService;
  /** The release calendar of a user's films (lib/library/calendar). */
  calendar: CalendarService;
  historyImport: HistoryImportService;
  recommend: RecommendService;
  /** The local recommender: picks, "more like this", 👍/👎 (lib/recommend/local). */
  localRecommend: LocalRecommendService;
  /** Tonight: words or filters turned into films (lib/recommend/tonight). */
  tonight: TonightService;
  /** Watched and My List: their entries (lib/library/entries). */
  entries: EntriesService;
  /** The admin's signup invites (SIGNUP=invite). */
  invites: InviteService;
  personalTokens: PersonalTokenService;
  /** Trakt sign-in: device and code flows, tokens, own apps (lib/connections/trakt). */
  traktAuth: TraktAuthService;
  /** The user's own lists and their share links (lib/library/lists). */
  lists: ListsService;
  profiles: ProfilesService;
  /** My streaming services: region, providers, switches (lib/catalog/my_streaming). */
  myStreaming: MyStreamingService;
  /** Movie nights: a shortlist for several people and a vote (lib/recommend/night). */
  nights: NightService;
}

/** Builds the services of one app. */
export function createServices(deps: AppDeps): Services {
  const catalog = createCatalogService(deps);
  const myStreaming = createMyStreamingService(deps);
  const details = createDetailsService(deps);
  const calendar = createCalendarService(deps);
  // Both feeds read the same secret: one allowance of unknown-secret guesses per address.
  const feedGuesses = createGuessLimit();
  // Films found by title are stored from the search row: the details job fills them in soon.
  const searching = askingAfterSearch(catalog, details.ask);
  // The details fetch after a write of a movie the store lacks: background work in the window,
  // at most 20 ids per user at once (lib/catalog/user_prefetch.ts; the rest asks the details job).
  const prefetch = userPrefetch(catalog, { log: deps.log, askDetails: details.ask });
  const services: Services = {
    auth: createAuthService(deps),
    invites: createInviteService(deps),
    availability: createAvailabilityService(deps),
    alerts: createAlertsService(deps),
    alertDelivery: createDeliveryWorker(deps),
    catalog,
    details,
    connections: createConnectionsService(deps, { catalog: searching }),
    traktWrites: createTraktWritesService(deps, { catalog: searching }),
    feeds: createFeedsService(deps, { guesses: feedGuesses }),
    calendarFeed: createCalendarFeedService(deps, { calendar, guesses: feedGuesses }),
    seerr: createSeerrService(deps),
    watchingNow: createWatchingNowService(deps),
    catalogImport: createCatalogImportService(deps, { catalog }),
    // Viewings, the year in review and the queue of what to rate (lib/library/diary).
    diary: createDiaryService(deps, { prefetch }),
    calendar,
    // A user's history file, matched through the catalog's search (lib/library/history/import), read
    // in a worker unless HISTORY_READ_WORKERS=0 (then on this thread, in slices).
    historyImport: createHistoryImportService(deps, {
      catalog,
      readFile: deps.config.historyReadWorkers > 0
        ? offThreadReader({ readers: deps.config.historyReadWorkers })
        : undefined,
      askDetails: details.ask,
    }),
    // A write of a movie the store lacks fetches its details in the background.
    entries: createEntriesService(deps, { prefetch }),
    personalTokens: createPersonalTokenService(deps),
    traktAuth: createTraktAuthService(deps),
    // Lists of the user's own and their share links (lib/library/lists); same background details.
    lists: createListsService(deps, { prefetch }),
    profiles: createProfilesService(deps),
    myStreaming,
    nights: buildNightService(deps),
    tonight: createTonightService(deps),
    localRecommend: createLocalRecommendService(deps),
    // Titles the movies store does not know fall back to the catalog search (lib/catalog).
    recommend: createRecommendService(deps, {
      search: (title, { year }) =>
        searching.search(title, { year, wait: true }).then((r) => r.value),
      details: (id) => catalog.movie(id),
      // "Only what I can stream" (lib/recommend/streaming_filter.ts).
      streaming: (userId) => streamingFilter(deps, { userId, catalog, myStreaming }),
    }),
  };
  return services;
}

/**
 * What a starting process does for the background jobs (lib/platform/jobs/restart.ts runs them): the
 * catalog import's, the availability job's and the details job's runs a restart cut off are
 * marked failed (they start over on their next run), and the history imports it cut off carry on
 * where they stopped.
 */
export function restartHooks(deps: AppDeps, services: Services): RestartHook[] {
  return [
    {
      name: "catalog import",
      leaseTtlMs: IMPORT_LOCK_TTL_MS,
      recover: () => failInterruptedImports(deps),
    },
    {
      name: "availability",
      leaseTtlMs: AVAILABILITY_LOCK_TTL_MS,
      recover: () => failInterruptedAvailabilityRuns(deps),
    },
    {
      name: "details",
      leaseTtlMs: DETAILS_LOCK_TTL_MS,
      recover: () => failInterruptedDetailsRuns(deps),
    },
    {
      name: "history import",
      leaseTtlMs: RUN_LEASE_MS,
      recover: () => services.historyImport.resume(),
    },
  ];
}
