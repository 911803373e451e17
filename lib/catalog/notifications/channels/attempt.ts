/**
 * One delivery attempt to one channel (docs/alerts.md, "Delivery"): the target checked again
 * (its DNS may have changed since it was saved), then the sender under a deadline whose signal
 * aborts its request. Never throws: a sender's own error is a failed attempt.
 */
import { describeError, type Logger } from "@/lib/core/log.ts";
import { maskTarget, type TargetPolicy, targetProblem } from "./target_guard.ts";
import type {
  AlertMessage,
  ChannelSender,
  ChannelType,
  SenderDeps,
  SendResult,
  StoredChannel,
} from "./types.ts";

/** How long one attempt may take. */
const ATTEMPT_MS = 10_000;

/** The URL a channel delivers to (a push subscription's endpoint), or undefined for email. */
export function channelTarget(channel: StoredChannel): string | undefined {
  switch (channel.type) {
    case "email":
      return undefined;
    case "webpush":
      return channel.subscription.endpoint;
    default:
      return channel.url;
  }
}

/** What an attempt needs besides the channel and the message. */
export interface AttemptDeps extends Omit<SenderDeps, "signal"> {
  senders: Record<ChannelType, ChannelSender>;
  targets: TargetPolicy;
  log: Logger;
  /** The attempt's deadline (10 s; tests shorten it). */
  attemptMs?: number;
}

/** Delivers `message` to `channel` once. */
export async function attemptDelivery(
  channel: StoredChannel,
  message: AlertMessage,
  deps: AttemptDeps,
): Promise<SendResult> {
  const target = channelTarget(channel);
  if (target !== undefined) {
    const problem = await targetProblem(target, deps.targets);
    if (problem) return { delivered: false, error: `not delivered: ${problem}` };
  }
  const ms = deps.attemptMs ?? ATTEMPT_MS;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${ms} ms`)), ms);
  try {
    const sent = deps.senders[channel.type](channel, message, { ...deps, signal: abort.signal });
    // A sender that ignores its signal is cut off all the same.
    const late = new Promise<SendResult>((resolve) =>
      abort.signal.addEventListener(
        "abort",
        () => resolve({ delivered: false, error: `no answer within ${Math.ceil(ms / 1000)} s` }),
      )
    );
    return await Promise.race([sent, late]);
  } catch (error) {
    deps.log({
      level: "warn",
      msg: "alert sender failed",
      channelId: channel.id,
      type: channel.type,
      target: target ? maskTarget(target) : undefined,
      error: describeError(error),
    });
    return { delivered: false, error: "the sender failed" };
  } finally {
    clearTimeout(timer);
  }
}
