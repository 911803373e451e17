/**
 * The `text/event-stream`s of nights on this instance (docs/nights.md, "Events"), bounded: at
 * most `perNight` streams of one night and `perInstance` in all (429 past either), a comment
 * every `heartbeatMs` so proxies keep the connection, the stream ended at the night's expiry (or
 * its deletion), and a phone that reads nothing for 64 KiB of events is let go rather than
 * queued for.
 */
import type { Clock } from "@/lib/core/clock.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { NightBus, NightEvent } from "./events.ts";

/** The bounds of the streams. */
interface StreamLimits {
  perNight: number;
  perInstance: number;
  heartbeatMs: number;
}

/** Default bounds: 8 members with a few tabs each; a server's worth of phones. */
const STREAM_LIMITS: StreamLimits = {
  perNight: 24,
  perInstance: 2_000,
  heartbeatMs: 25_000,
};

/** Bytes queued for a stream before its reader counts as gone. */
const MAX_QUEUED = 64 * 1024;

/** The streams of this instance. */
export interface NightStreams {
  /** A new stream of `night`'s events until `expiresAt` (ms); 429 past a cap. */
  open(night: string, options: { expiresAt: number }): Promise<ReadableStream<Uint8Array>>;
  /** Streams open now. */
  readonly openCount: number;
  /** Ends every stream (a shutdown): the phones reconnect, to another instance if need be. */
  closeAll(): void;
}

/** Writes one event as the event-stream format has it. */
function eventText(e: Pick<NightEvent, "event" | "data">): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

function tooMany(): Problem {
  return new Problem(
    429,
    "too_many_streams",
    "Too many phones are following this night (or this server) right now; try again shortly.",
    { headers: { "Retry-After": "30" } },
  );
}

/** The streams of one instance over `bus`. */
export function nightStreams(
  deps: { clock: Clock; bus: NightBus },
  limits: StreamLimits = STREAM_LIMITS,
): NightStreams {
  const byNight = new Map<string, number>();
  const closers = new Set<() => void>();
  let total = 0;
  const encoder = new TextEncoder();
  return {
    get openCount() {
      return total;
    },
    closeAll() {
      for (const close of [...closers]) close();
    },
    async open(night, { expiresAt }) {
      if (total >= limits.perInstance || (byNight.get(night) ?? 0) >= limits.perNight) {
        throw tooMany();
      }
      // Counted before the subscription, so streams opened at once cannot pass the cap together.
      total++;
      byNight.set(night, (byNight.get(night) ?? 0) + 1);
      let ended = false;
      let stopBeat = () => {};
      let unsubscribe = () => {};
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const end = () => {
        if (ended) return;
        ended = true;
        closers.delete(close);
        stopBeat();
        unsubscribe();
        total--;
        const left = (byNight.get(night) ?? 1) - 1;
        if (left > 0) byNight.set(night, left);
        else byNight.delete(night);
      };
      const write = (text: string) => {
        if (ended) return;
        controller.enqueue(encoder.encode(text));
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED) close();
      };
      const close = () => {
        if (ended) return;
        end();
        try {
          controller.close();
        } catch {
          // Already cancelled by the reader.
        }
      };
      closers.add(close);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
        cancel: end,
      }, new ByteLengthQueuingStrategy({ highWaterMark: 0 }));
      try {
        unsubscribe = await deps.bus.subscribe(night, (e) => {
          write(eventText(e));
          if (e.event === "end") close();
        });
      } catch (error) {
        end();
        throw error;
      }
      // The reader knows it is connected at once; reconnecting after 3 s when cut.
      write("retry: 3000\n: connected\n\n");
      stopBeat = deps.clock.every(limits.heartbeatMs, () => {
        if (deps.clock.now() < expiresAt) return write(": ping\n\n");
        write(eventText({ event: "end", data: { reason: "expired" } }));
        close();
      });
      return stream;
    },
  };
}
