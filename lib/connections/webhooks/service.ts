/**
 * Media-server connections (docs/connections.md): the owner's settings and recent events, and
 * the receivers' work: refuse an address that guessed too many secrets (429), find the user by
 * the secret's digest (404 when none, counted against the address in memory), count the
 * request against the secret's minute (429 past 60), read the event, and log, rate, ignore or
 * leave it unmatched, recording the outcome.
 */
import { takeAttempt, type WindowLimit } from "@/lib/identity/auth/rate_limit.ts";
import type { MovieSource } from "@/lib/catalog/types.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { rateWatched } from "@/lib/library/diary/mod.ts";
import { eventDate, fullReason, logWebhookViewing } from "./apply.ts";
import { parseHookBody } from "./body.ts";
import { createGuessLimit } from "./guess_limit.ts";
import { type EventResult, readEvents, type ReceivedEvent, recordEvent } from "./events.ts";
import type { MediaEvent, MediaSource } from "./media_event.ts";
import type { ConnectionSettingsPatch } from "./payload.ts";
import { plexAccount, readPlex } from "./plex.ts";
import { readJellyfin } from "./jellyfin.ts";
import { readEmby } from "./emby.ts";
import { readGeneric } from "./generic.ts";
import { resolveMovie } from "./resolve.ts";
import { secretDigest } from "./secret.ts";
import { settleUnconfirmed, UNCONFIRMED } from "./unconfirmed.ts";
import { describeError } from "@/lib/core/log.ts";
import { feedUrl } from "../feeds/feed.ts";
import {
  type ConnectionSettings,
  ensureConnection,
  rotateSecret,
  updateConnection,
  webhookUrl,
} from "./settings.ts";

/** Requests per secret per minute. */
const HOOK_LIMIT: WindowLimit = { name: "webhook_secret", limit: 60, windowMs: 60_000 };

/** The user a secret belongs to, with the settings the receivers read. */
interface HookOwner {
  userId: string;
  plexUsername: string | null;
  removeFromMyList: boolean;
}

/** A receiver's answer. */
interface HookAnswer {
  result: Exclude<EventResult, "invalid">;
  reason?: string;
}

const READERS: Record<MediaSource, (payload: Record<string, unknown>) => MediaEvent> = {
  plex: readPlex,
  jellyfin: readJellyfin,
  emby: readEmby,
  generic: readGeneric,
};

/** What the connection routes and receivers call. */
export interface ConnectionsService {
  /** The user's settings (the secret made on first read). */
  settings(userId: string): Promise<ConnectionSettings>;
  /** Changes the named settings. */
  update(userId: string, patch: ConnectionSettingsPatch): Promise<ConnectionSettings>;
  /** A new secret; the old one is dead at once. */
  rotate(userId: string): Promise<{ webhookUrl: string }>;
  /** The last 50 received events, newest first. */
  events(userId: string): Promise<ReceivedEvent[]>;
  /**
   * The owner of `secret` sent from `address`: 404 `not_found` for none, 429 `rate_limited`
   * past the secret's 60 a minute or while the address is over its unknown-secret limit.
   */
  open(secret: string, from: { address: string }): Promise<HookOwner>;
  /** Notes a body refused before it was read (too large), for the owner's events. */
  refused(owner: HookOwner, refusal: { source: MediaSource; reason: string }): Promise<void>;
  /** Handles one event's body; a 400 `invalid_payload` only when it cannot be read. */
  receive(
    owner: HookOwner,
    body: { source: MediaSource; bytes: Uint8Array; type: string },
  ): Promise<HookAnswer>;
}

/** Builds the service; `catalog` resolves movies through the shared window. */
export function createConnectionsService(
  deps: AppDeps,
  options: { catalog: MovieSource },
): ConnectionsService {
  const { store, clock, kv, config } = deps;
  const guesses = createGuessLimit();
  const nowIso = () => new Date(clock.now()).toISOString();
  const shape = (
    row: {
      secret: string;
      feedSecret: string;
      plexUsername: string | null;
      removeFromMyList: boolean;
    },
  ) => ({
    webhookUrl: webhookUrl(config.siteUrl, row.secret),
    feedUrl: feedUrl(config.siteUrl, row.feedSecret),
    plexUsername: row.plexUsername,
    removeFromMyList: row.removeFromMyList,
  });
  const record = (userId: string, event: Omit<ReceivedEvent, "at">) =>
    store.asUser(userId, (tx) => recordEvent(tx, { at: nowIso(), ...event }));

  async function handle(owner: HookOwner, source: MediaSource, event: MediaEvent) {
    const base = {
      source,
      event: event.event,
      title: event.movie.title ?? null,
      year: event.movie.year ?? null,
    };
    const done = async (result: HookAnswer["result"], more: Partial<ReceivedEvent> = {}) => {
      await record(owner.userId, { ...base, result, reason: null, catalogId: null, ...more });
      return { result, ...(more.reason ? { reason: more.reason } : {}) };
    };
    if (event.action === "ignore") return await done("ignored", { reason: event.reason });
    const movie = await resolveMovie({ catalog: options.catalog, store, clock }, event.movie);
    if ("reason" in movie) return await done("unmatched", { reason: movie.reason });
    const found = {
      catalogId: movie.catalogId,
      title: movie.title ?? base.title,
      year: movie.year ?? base.year,
    };
    if (event.action === "rate") {
      const rated = await store.asUser(
        owner.userId,
        (tx) =>
          rateWatched(tx, {
            userId: owner.userId,
            catalogId: movie.catalogId,
            rating: event.rating,
          }),
      );
      return rated
        ? await done("rated", found)
        : await done("ignored", { ...found, reason: "not_watched" });
    }
    const watchedOn = eventDate(event.at, clock.now());
    let created: boolean;
    try {
      created = await store.asUser(owner.userId, (tx) =>
        logWebhookViewing(
          tx,
          { catalogId: movie.catalogId, watchedOn, rating: event.rating },
          { userId: owner.userId, loggedAt: nowIso(), removeFromMyList: owner.removeFromMyList },
        ));
    } catch (error) {
      // Past a limit the transaction wrote nothing; the event is listed with the reason.
      const full = fullReason(error);
      if (full) return await done("ignored", { ...found, reason: full });
      throw error;
    }
    const reason = !created ? "already_logged" : movie.unconfirmed ? UNCONFIRMED : undefined;
    return await done("logged", reason ? { ...found, reason } : found);
  }

  // After an event: one id an earlier event logged while TMDB was down is confirmed or taken
  // back, unless this event just found TMDB down itself. Never fails the event.
  async function settle(owner: HookOwner) {
    try {
      await settleUnconfirmed({ store, catalog: options.catalog }, owner.userId);
    } catch (error) {
      deps.log({
        level: "warn",
        msg: "settling an unconfirmed webhook viewing failed",
        error: describeError(error),
      });
    }
  }

  return {
    settings: async (userId) =>
      shape(await store.asUser(userId, (tx) => ensureConnection(tx, nowIso()))),
    update: async (userId, patch) =>
      shape(await store.asUser(userId, (tx) => updateConnection(tx, patch, nowIso()))),
    async rotate(userId) {
      const secret = await store.asUser(userId, (tx) => rotateSecret(tx, nowIso()));
      return { webhookUrl: webhookUrl(config.siteUrl, secret) };
    },
    events: (userId) => store.asUser(userId, (tx) => readEvents(tx)),

    async open(secret, from) {
      // An address over its guesses is refused before the lookup, whatever the secret: a
      // guesser learns nothing more from it until the window ends.
      guesses.refuse(from.address, clock.now(), "webhook");
      // Any secret: its digest, then one unique-index lookup (no prefix of it is compared).
      const digest = await secretDigest(secret);
      const [row] = await store.query<HookOwner>(
        `select user_id as "userId", plex_username as "plexUsername",
                remove_from_my_list as "removeFromMyList"
           from public.user_connections where secret_hash = $1`,
        [digest],
      );
      if (!row) {
        // Counted in memory: a guess writes nothing to KV or the store.
        guesses.miss(from.address, clock.now());
        throw new Problem(404, "not_found", "No webhook has this address.");
      }
      const attempt = await takeAttempt(kv, [{ limit: HOOK_LIMIT, subject: digest }], { clock });
      if (!attempt.allowed) {
        throw new Problem(
          429,
          "rate_limited",
          `At most ${HOOK_LIMIT.limit} events a minute to one webhook; try again later.`,
          { headers: { "Retry-After": String(attempt.retryAfterS) } },
        );
      }
      return {
        userId: String(row.userId),
        plexUsername: row.plexUsername,
        removeFromMyList: row.removeFromMyList,
      };
    },

    async refused(owner, refusal) {
      await record(owner.userId, {
        source: refusal.source,
        event: "",
        result: "invalid",
        reason: refusal.reason,
        title: null,
        year: null,
        catalogId: null,
      });
    },

    async receive(owner, body) {
      let payload: Record<string, unknown>;
      try {
        payload = await parseHookBody(body.bytes, { source: body.source, type: body.type });
      } catch (error) {
        if (error instanceof Problem) {
          await this.refused(owner, { source: body.source, reason: error.code });
        }
        throw error;
      }
      let event = READERS[body.source](payload);
      const account = body.source === "plex" ? plexAccount(payload) : undefined;
      if (
        event.action !== "ignore" && owner.plexUsername !== null && body.source === "plex" &&
        account?.toLowerCase() !== owner.plexUsername.toLowerCase()
      ) {
        event = {
          action: "ignore",
          event: event.event,
          movie: event.movie,
          reason: "other_plex_account",
        };
      }
      const answer = await handle(owner, body.source, event);
      if (answer.reason !== UNCONFIRMED && answer.reason !== "catalog_unavailable") {
        await settle(owner);
      }
      return answer;
    },
  };
}
