/**
 * The alerts section of an account (docs/alerts.md): the kinds the user wants and their
 * channels, each added with its target checked, listed masked, renamed, switched, removed and
 * tested with one delivery attempt now.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { seal, type SealKeySource } from "@/lib/platform/kv/seal.ts";
import { type Mailer, smtpMailer } from "@/lib/platform/mail/mod.ts";
import { ALERT_KINDS, type AlertKinds, readAlertKinds, writeAlertKinds } from "../alert_kinds.ts";
import { attemptDelivery, type AttemptDeps } from "./attempt.ts";
import {
  type ChannelRecord,
  type ChannelView,
  deleteChannel,
  listChannels,
  loadChannel,
  readChannelView,
  saveChannel,
  updateChannel,
  writeEmailAlerts,
} from "./channel_store.ts";
import { isDiscordWebhookUrl } from "./discord.ts";
import { testMessage } from "./message.ts";
import { SENDERS } from "./senders.ts";
import { recordDelivered, recordFailed, removeGoneChannel } from "./outcome.ts";
import { channelNotFound, type ChannelPatch, type NewChannel } from "./payloads.ts";
import { maskTarget, type ResolveHost, systemResolveHost, targetProblem } from "./target_guard.ts";
import type { ChannelSender, ChannelType } from "./types.ts";
import { newWebhookSecret } from "./webhook.ts";

/** GET /api/me/alerts's body. */
interface AlertSettings {
  kinds: AlertKinds;
  channels: ChannelView[];
}

/** A test's outcome as the API answers it. */
type TestOutcome = { delivered: true } | { delivered: false; error: string };

/** The alerts of an account. */
export interface AlertsService {
  read(userId: string): Promise<AlertSettings>;
  /** Switches the kinds named (the others keep theirs); answers what GET answers. */
  writeKinds(userId: string, kinds: Partial<AlertKinds>): Promise<AlertSettings>;
  /** Adds a channel; a webhook's answer carries its secret, this once. */
  create(userId: string, body: NewChannel): Promise<ChannelView & { secret?: string }>;
  update(userId: string, id: string, patch: ChannelPatch): Promise<ChannelView>;
  remove(userId: string, id: string): Promise<void>;
  /** One delivery attempt of a test message now; counts like any delivery. */
  test(userId: string, id: string): Promise<TestOutcome>;
}

/** What the service is built with besides the app's dependencies (tests replace these). */
interface AlertsOptions {
  resolveHost?: ResolveHost;
  senders?: Record<ChannelType, ChannelSender>;
  /** One attempt's deadline (10 s). */
  attemptMs?: number;
  mailer?: Mailer;
}

/** PUT /api/me/alerts's body. */
export const kindsBodySchema = z.strictObject({
  kinds: z.strictObject(
    Object.fromEntries(ALERT_KINDS.map((k) => [k, z.boolean().optional()])) as Record<
      (typeof ALERT_KINDS)[number],
      z.ZodOptional<z.ZodBoolean>
    >,
  ),
});

/** The body of PUT /api/me/alerts: `{"kinds":{...}}`; an unknown kind is 400 `invalid_kinds`. */
export function parseKindsBody(body: unknown): Partial<AlertKinds> {
  const parsed = kindsBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new Problem(
      400,
      "invalid_kinds",
      `The body must be {"kinds":{...}} with true or false for any of ${ALERT_KINDS.join(", ")}.`,
    );
  }
  return parsed.data.kinds;
}

const LABELS: Record<ChannelType, string> = {
  email: "Email",
  webpush: "This device",
  ntfy: "ntfy",
  discord: "Discord",
  webhook: "Webhook",
  apprise: "Apprise",
};

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function invalidTarget(detail: string): Problem {
  return new Problem(400, "invalid_target", detail);
}

/** Builds the alerts service. */
export function createAlertsService(deps: AppDeps, options: AlertsOptions = {}): AlertsService {
  const { store, config, clock } = deps;
  const keys: SealKeySource = { kv: deps.kv, configured: config.secretsKey };
  const targets = {
    resolveHost: options.resolveHost ?? systemResolveHost,
    allowPrivate: config.alertPrivateTargets,
  };
  const mailer = options.mailer ??
    (config.smtp ? smtpMailer(config.smtp, { from: config.mailFrom }) : undefined);
  const attemptDeps: AttemptDeps = {
    fetch: deps.fetch,
    clock,
    config,
    mailer,
    log: deps.log,
    senders: options.senders ?? SENDERS,
    targets,
    attemptMs: options.attemptMs,
  };
  const defaults = { defaultRegion: config.tmdb.watchRegion };

  async function view(userId: string, id: string): Promise<ChannelView> {
    const found = await readChannelView(store, userId, id);
    if (!found) throw channelNotFound();
    return found;
  }

  /** The row to save for `body`, after its target passed the guard, and a new webhook secret. */
  async function record(body: NewChannel): Promise<{ record: ChannelRecord; secret?: string }> {
    if (body.type === "email") {
      const name = body.name ?? LABELS.email;
      return {
        record: { type: "email", name, targetMasked: "", targetDigest: null, sealedConfig: null },
      };
    }
    const target = body.type === "webpush" ? body.subscription.endpoint : body.url;
    const problem = await targetProblem(target, targets);
    if (problem) throw invalidTarget(`The target is refused: ${problem}.`);
    if (body.type === "discord" && !isDiscordWebhookUrl(target)) {
      throw invalidTarget(
        "A Discord target is a webhook URL: https://discord.com/api/webhooks/{id}/{token}.",
      );
    }
    let sealedFields: Record<string, unknown>;
    let secret: string | undefined;
    switch (body.type) {
      case "webpush":
        sealedFields = {
          subscription: { endpoint: target, keys: body.subscription.keys },
        };
        break;
      case "ntfy":
        sealedFields = { url: target, token: body.token };
        break;
      case "webhook":
        secret = newWebhookSecret();
        sealedFields = { url: target, secret };
        break;
      default:
        sealedFields = { url: target };
    }
    const masked = maskTarget(target);
    return {
      secret,
      record: {
        type: body.type,
        name: body.name ?? `${LABELS[body.type]} (${new URL(target).host})`,
        targetMasked: masked,
        targetDigest: await sha256Hex(target),
        sealedConfig: await seal(keys, JSON.stringify(sealedFields)),
      },
    };
  }

  return {
    async read(userId) {
      const [kinds, channels] = await Promise.all([
        readAlertKinds(store, userId),
        listChannels(store, userId),
      ]);
      return { kinds, channels };
    },

    async writeKinds(userId, kinds) {
      const written = await writeAlertKinds(store, userId, kinds);
      return { kinds: written, channels: await listChannels(store, userId) };
    },

    async create(userId, body) {
      const { record: row, secret } = await record(body);
      const now = clock.now();
      const saved = await saveChannel(store, userId, row);
      if (saved === "too_many") {
        throw new Problem(
          400,
          "too_many_channels",
          "An account has at most 10 alert channels; remove one first.",
        );
      }
      if (row.type === "email") {
        await store.asUser(userId, (tx) => writeEmailAlerts(tx, true, { ...defaults, now }));
      }
      const created = await view(userId, saved.id);
      return secret ? { ...created, secret } : created;
    },

    async update(userId, id, patch) {
      const found = await updateChannel(store, userId, {
        id,
        ...patch,
        ...defaults,
        now: clock.now(),
      });
      if (!found) throw channelNotFound();
      return await view(userId, id);
    },

    async remove(userId, id) {
      if (!await deleteChannel(store, userId, { id, now: clock.now() })) throw channelNotFound();
    },

    async test(userId, id) {
      const channel = await loadChannel(store, keys, { userId, id });
      if (!channel) throw channelNotFound();
      if (channel === "unreadable") {
        const error = "the channel's settings can no longer be opened (SECRETS_KEY changed?); " +
          "add it again";
        await recordFailed(store, id, { error, now: clock.now() });
        return { delivered: false, error };
      }
      const result = await attemptDelivery(channel, testMessage(clock.now()), attemptDeps);
      if (result.delivered) {
        await recordDelivered(store, channel.id, { now: clock.now() });
        return { delivered: true };
      }
      if (result.remove) await removeGoneChannel(store, channel.id);
      else await recordFailed(store, channel.id, { error: result.error, now: clock.now() });
      return { delivered: false, error: result.error };
    },
  };
}
