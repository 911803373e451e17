/**
 * A user's notifications (docs/availability.md): "now streaming" and release alerts, and notices
 * that a channel was turned off, newest first, at most 100 with the unread count, in one
 * statement; marked read by id or all at once, as the user.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";

/** The most notifications one read lists. */
export const MAX_LISTED = 100;
/** The most ids one mark-read request names. */
const MAX_READ_IDS = 1000;

/** The release alert kinds and the release type each names. */
const RELEASE_KINDS = {
  in_theaters: "theatrical",
  on_digital: "digital",
  on_physical: "physical",
} as const;

/** A release alert's kind. */
type ReleaseKind = keyof typeof RELEASE_KINDS;

/** What every notification has. */
interface NotificationBase {
  id: string;
  createdAt: string;
  readAt: string | null;
}

/** A movie on My List newly streams on one of the user's services in their region. */
interface StreamingNotification extends NotificationBase {
  kind: "now_streaming";
  catalogId: number;
  title: string;
  provider: { id: number; name: string; logo: string };
  region: string;
}

/** A movie on My List is out (in theaters, on digital, on disc) in the user's region. */
interface ReleaseNotification extends NotificationBase {
  kind: ReleaseKind;
  catalogId: number;
  title: string;
  provider: null;
  region: string;
  releaseType: (typeof RELEASE_KINDS)[ReleaseKind];
  /** YYYY-MM-DD, the release's day in the region. */
  releaseDate: string;
}

/** One of the user's alert channels was turned off after failing (docs/alerts.md). */
interface ChannelNotification extends NotificationBase {
  kind: "channel_disabled";
  catalogId: null;
  title: "";
  provider: null;
  region: null;
  /** The channel's name. */
  channel: string;
}

/** One notification as the API shows it. */
export type Notification = StreamingNotification | ReleaseNotification | ChannelNotification;

/** GET /api/notifications's body. */
export interface NotificationList {
  notifications: Notification[];
  unread: number;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

// One row whatever the count: the page and the unread count together.
const LIST_SQL = `select
    (select count(*)::integer from public.user_notifications
      where user_id = $1::uuid and read_at is null) as unread,
    coalesce((select jsonb_agg(jsonb_build_object(
        'id', x.id, 'kind', x.kind, 'catalogId', x.catalog_id, 'title', x.title,
        'providerId', x.provider_id, 'providerName', x.provider_name,
        'providerLogo', x.provider_logo, 'region', x.region, 'releaseType', x.release_type,
        'releaseDate', to_char(x.release_date, 'YYYY-MM-DD'), 'channel', x.channel_name,
        'createdAt', x.created, 'readAt', x.read) order by x.created_at desc, x.id desc)
      from (select n.*, coalesce(m.title, '') as title,
              to_char(n.created_at at time zone 'UTC', ${ISO}) as created,
              to_char(n.read_at at time zone 'UTC', ${ISO}) as read
              from public.user_notifications n
              left join public.movies m on m.catalog_id = n.catalog_id
             where n.user_id = $1::uuid and ($2::boolean = false or n.read_at is null)
             order by n.created_at desc, n.id desc limit ${MAX_LISTED}) x), '[]'::jsonb) as list`;

/** A listed row in the shape of its kind. */
function toNotification(n: Record<string, unknown>, imageBaseUrl: string): Notification {
  const base = {
    id: String(n.id),
    createdAt: String(n.createdAt),
    readAt: n.readAt === null ? null : String(n.readAt),
  };
  const kind = String(n.kind);
  if (kind === "channel_disabled") {
    return {
      id: base.id,
      kind,
      catalogId: null,
      title: "",
      provider: null,
      region: null,
      channel: String(n.channel ?? ""),
      createdAt: base.createdAt,
      readAt: base.readAt,
    };
  }
  const film = { catalogId: Number(n.catalogId), title: String(n.title) };
  if (kind in RELEASE_KINDS) {
    const releaseKind = kind as ReleaseKind;
    return {
      id: base.id,
      kind: releaseKind,
      ...film,
      provider: null,
      region: String(n.region),
      releaseType: RELEASE_KINDS[releaseKind],
      releaseDate: String(n.releaseDate),
      createdAt: base.createdAt,
      readAt: base.readAt,
    };
  }
  return {
    id: base.id,
    kind: "now_streaming",
    ...film,
    provider: {
      id: Number(n.providerId),
      name: String(n.providerName),
      logo: n.providerLogo ? `${imageBaseUrl}/w92${n.providerLogo}` : "",
    },
    region: String(n.region),
    createdAt: base.createdAt,
    readAt: base.readAt,
  };
}

/** The user's notifications (only unread ones with `unreadOnly`) and the unread count. */
export async function listNotifications(
  store: Store,
  userId: string,
  options: { unreadOnly: boolean; imageBaseUrl: string },
): Promise<NotificationList> {
  const [row] = await store.query<{ unread: number; list: unknown }>(LIST_SQL, [
    userId,
    options.unreadOnly,
  ]);
  const raw = typeof row.list === "string" ? JSON.parse(row.list) : row.list;
  const notifications = (raw as Record<string, unknown>[]).map((n) =>
    toNotification(n, options.imageBaseUrl)
  );
  return { notifications, unread: Number(row.unread) };
}

/** POST /api/notifications/read's body. */
export const markReadSchema = z.union([
  z.strictObject({ ids: z.array(z.uuid()).min(1).max(MAX_READ_IDS) }),
  z.strictObject({ all: z.literal(true) }),
]);

/** What to mark read: some ids, or all. */
type MarkRead = { ids: string[] } | { all: true };

/** Checks the body; 400 `invalid_body` when it is neither form. */
export function parseMarkRead(body: unknown): MarkRead {
  const parsed = markReadSchema.safeParse(body);
  if (!parsed.success) {
    throw new Problem(
      400,
      "invalid_body",
      `The body must be {"ids":[...]} (1 to ${MAX_READ_IDS} notification ids) or {"all":true}.`,
    );
  }
  return parsed.data;
}

/** Marks notifications read as the user (row-level security: never another user's). */
export async function markRead(
  store: Store,
  userId: string,
  options: { which: MarkRead; now: number },
): Promise<void> {
  const ids = "ids" in options.which ? options.which.ids : null;
  await store.asUser(userId, (tx) =>
    tx.query(
      `update public.user_notifications set read_at = $2
        where user_id = (select auth.uid()) and read_at is null
          and ($1::uuid[] is null or id = any ($1::uuid[]))`,
      [ids, new Date(options.now).toISOString()],
    ));
}

/** The user's unread notifications (the header's bell). */
export async function countUnread(store: Store, userId: string): Promise<number> {
  const [row] = await store.query<{ n: number }>(
    `select count(*)::integer as n from public.user_notifications
      where user_id = $1::uuid and read_at is null`,
    [userId],
  );
  return Number(row.n);
}
