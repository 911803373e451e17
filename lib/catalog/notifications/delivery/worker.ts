/**
 * The delivery worker (docs/alerts.md, "Delivery"): off the request path, each instance claims
 * due rows of the queue and delivers at most 4 at once, one row of a channel at a time; an
 * attempt has 10 s, a failed one is put back with a backoff (30 s, then 2 min) for 3 attempts in
 * all, after which the delivery counts as failed for its channel (10 in a row switch it off).
 * The notification itself stays in the bell whatever happens here.
 */
import { describeError } from "@/lib/core/log.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { SealKeySource } from "@/lib/platform/kv/seal.ts";
import { type Mailer, smtpMailer } from "@/lib/platform/mail/mod.ts";
import { attemptDelivery, type AttemptDeps, channelTarget } from "../channels/attempt.ts";
import { openChannel } from "../channels/channel_store.ts";
import { notificationMessage } from "../channels/message.ts";
import { SENDERS } from "../channels/senders.ts";
import { recordDelivered, recordFailed, removeGoneChannel } from "../channels/outcome.ts";
import { maskTarget, type ResolveHost, systemResolveHost } from "../channels/target_guard.ts";
import type { ChannelSender, ChannelType } from "../channels/types.ts";
import { claimDeliveries, type ClaimedDelivery, finishDelivery, retryDelivery } from "./queue.ts";

/** Deliveries in flight at once per instance. */
const DELIVERY_CONCURRENCY = 4;
/** Attempts of one delivery, the first included. */
const DELIVERY_ATTEMPTS = 3;
/** The wait before attempt 2 and before attempt 3. */
const BACKOFF_MS = [30_000, 120_000];
/** How long a claim is this instance's: well past one attempt's 10 s. */
const LEASE_MS = 60_000;
/** How often an idle worker looks at the queue. */
const POLL_MS = 5_000;

/** The queue's worker of one instance. */
export interface DeliveryWorker {
  /** Looks at the queue every few seconds from now on. */
  start(): void;
  /** Stops looking; resolves once the deliveries in flight are done. */
  stop(): Promise<void>;
  /** Delivers everything due now (retries whose backoff has not passed stay), then resolves. */
  drain(): Promise<void>;
}

/** What the worker is built with besides the app's dependencies (tests and benchmarks set these). */
interface DeliveryOptions {
  resolveHost?: ResolveHost;
  senders?: Record<ChannelType, ChannelSender>;
  attemptMs?: number;
  concurrency?: number;
  pollMs?: number;
  mailer?: Mailer;
}

/** Builds the worker of the delivery queue. */
export function createDeliveryWorker(
  deps: AppDeps,
  options: DeliveryOptions = {},
): DeliveryWorker {
  const { store, config, clock, log } = deps;
  const keys: SealKeySource = { kv: deps.kv, configured: config.secretsKey };
  const links = { siteUrl: config.siteUrl, imageBaseUrl: config.tmdb.imageBaseUrl };
  const limit = options.concurrency ?? DELIVERY_CONCURRENCY;
  const attemptDeps: AttemptDeps = {
    fetch: deps.fetch,
    clock,
    config,
    log,
    mailer: options.mailer ??
      (config.smtp ? smtpMailer(config.smtp, { from: config.mailFrom }) : undefined),
    senders: options.senders ?? SENDERS,
    targets: {
      resolveHost: options.resolveHost ?? systemResolveHost,
      allowPrivate: config.alertPrivateTargets,
    },
    attemptMs: options.attemptMs,
  };
  // Channel id -> its delivery in flight on this instance.
  const inflight = new Map<string, Promise<void>>();
  let claiming: Promise<number> | undefined;
  // A claim was asked for while one ran: run another when it ends.
  let again = false;
  let stopTimer: (() => void) | undefined;
  let stopped = false;

  async function deliver(row: ClaimedDelivery): Promise<void> {
    const channel = await openChannel(keys, row.channel);
    if (!channel || !channel.enabled) {
      // Switched off or unreadable since it was queued: nothing to send, the bell keeps it.
      await finishDelivery(store, row.id);
      return;
    }
    const message = notificationMessage(row.facts, links);
    const result = await attemptDelivery(channel, message, attemptDeps);
    if (result.delivered) {
      await recordDelivered(store, channel.id, { now: clock.now(), deliveryId: row.id });
      return;
    }
    const target = channelTarget(channel);
    log({
      level: "warn",
      msg: "alert delivery failed",
      channelId: channel.id,
      type: channel.type,
      target: target ? maskTarget(target) : undefined,
      attempt: row.attempt,
      error: result.error,
    });
    if (result.remove) {
      await removeGoneChannel(store, channel.id);
    } else if (row.attempt >= DELIVERY_ATTEMPTS) {
      await finishDelivery(store, row.id);
      const disabled = await recordFailed(store, channel.id, {
        error: result.error,
        now: clock.now(),
      });
      if (disabled) {
        log({ level: "warn", msg: "alert channel switched off", channelId: channel.id });
      }
    } else {
      await retryDelivery(store, row.id, {
        dueAt: clock.now() + BACKOFF_MS[row.attempt - 1],
        error: result.error,
      });
    }
  }

  /** Claims what the free slots allow and starts it; resolves with how many it claimed. */
  function claimOnce(): Promise<number> {
    const now = clock.now();
    return claimDeliveries(store, {
      now,
      limit: limit - inflight.size,
      busy: [...inflight.keys()],
      leaseUntil: now + LEASE_MS,
    }).then((rows) => {
      for (const row of rows) {
        const channelId = row.channel.id;
        const done = deliver(row)
          .catch((error) =>
            // The lease runs out and the row is tried again (by any instance).
            log({
              level: "error",
              msg: "alert delivery broke",
              deliveryId: row.id,
              error: describeError(error),
            })
          )
          .finally(() => {
            inflight.delete(channelId);
            if (!stopped) void fill();
          });
        inflight.set(channelId, done);
      }
      return rows.length;
    });
  }

  /**
   * Claims until a claim started after the last change finds nothing more (a delivery that ends
   * while a claim runs frees a slot and its channel, which that claim could not see); resolves
   * with how many rows it claimed in all.
   */
  function fill(): Promise<number> {
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await claimOnce();
        } while (again && !stopped);
      } catch (error) {
        log({ level: "error", msg: "alert queue claim failed", error: describeError(error) });
      } finally {
        claiming = undefined;
      }
      return total;
    })();
    return claiming;
  }

  return {
    start() {
      stopped = false;
      stopTimer ??= clock.every(options.pollMs ?? POLL_MS, () => void fill());
      void fill();
    },
    async stop() {
      stopped = true;
      stopTimer?.();
      stopTimer = undefined;
      await Promise.allSettled([...inflight.values()]);
    },
    async drain() {
      while (true) {
        const claimed = await fill();
        if (claimed === 0 && inflight.size === 0) return;
        if (inflight.size > 0) await Promise.race(inflight.values());
      }
    },
  };
}
