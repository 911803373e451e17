/**
 * A night's events (`member`, `vote`, `match`, and `start`, `end`) to every phone watching it,
 * whichever instance it is connected to (docs/nights.md, "Events"). In-process on the embedded
 * store (one process holds the data); with COORDINATION=postgres through PostgreSQL's
 * LISTEN/NOTIFY, so an event published on one instance reaches the streams of every instance.
 */
import type { Store } from "@/lib/platform/store/mod.ts";
import type { Logger } from "@/lib/core/log.ts";
import { describeError } from "@/lib/core/log.ts";

/** The names of a night's events. */
type NightEventName = "member" | "vote" | "match" | "start" | "end";

/** One event of one night. */
export interface NightEvent {
  night: string;
  event: NightEventName;
  data: Record<string, unknown>;
}

/** Where a night's events are published and heard. */
export interface NightBus {
  /** Sends `e` to every subscriber of its night on every instance. */
  publish(e: NightEvent): Promise<void>;
  /** Calls `fn` with each event of `night`; resolves once events are heard, to the unsubscribe. */
  subscribe(night: string, fn: (e: NightEvent) => void): Promise<() => void>;
}

/** The NOTIFY channel of nights' events. */
const CHANNEL = "movie_night_events";

/** The subscribers of this process, by night. */
class LocalBus {
  readonly #byNight = new Map<string, Set<(e: NightEvent) => void>>();

  dispatch(e: NightEvent): void {
    for (const fn of this.#byNight.get(e.night) ?? []) fn(e);
  }

  add(night: string, fn: (e: NightEvent) => void): () => void {
    let set = this.#byNight.get(night);
    if (!set) this.#byNight.set(night, set = new Set());
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.#byNight.get(night) === set) this.#byNight.delete(night);
    };
  }
}

/** Events within this process only (the embedded store, or COORDINATION=kv). */
export function localBus(): NightBus {
  const local = new LocalBus();
  return {
    publish(e) {
      // Subscribers hear it after the publisher's own answer is on its way, as with NOTIFY.
      queueMicrotask(() => local.dispatch(e));
      return Promise.resolve();
    },
    subscribe: (night, fn) => Promise.resolve(local.add(night, fn)),
  };
}

/**
 * Events through PostgreSQL: each instance LISTENs once (on the store's own listening
 * connection) while it has a subscriber, and a publish is a NOTIFY, which PostgreSQL delivers
 * after the publishing transaction commits, to every instance, this one included.
 */
export function postgresBus(store: Store, log: Logger): NightBus {
  const listen = store.listen;
  if (!listen) throw new Error("the PostgreSQL bus needs a store that can LISTEN");
  const local = new LocalBus();
  let listening: Promise<() => Promise<void>> | undefined;
  const onMessage = (payload: string) => {
    try {
      const e = JSON.parse(payload) as NightEvent;
      if (typeof e.night === "string" && typeof e.event === "string") local.dispatch(e);
    } catch (error) {
      log({ level: "warn", msg: "night event unreadable", error: describeError(error) });
    }
  };
  return {
    async publish(e) {
      await store.query("select pg_catalog.pg_notify($1, $2)", [CHANNEL, JSON.stringify(e)]);
    },
    async subscribe(night, fn) {
      const remove = local.add(night, fn);
      try {
        await (listening ??= listen.call(store, CHANNEL, onMessage).catch((error) => {
          listening = undefined;
          throw error;
        }));
      } catch (error) {
        remove();
        throw error;
      }
      // The connection stays listening for the next stream: a night's phones come and go.
      return remove;
    },
  };
}
