/**
 * A user's notifications (docs/availability.md): "now streaming" alerts, newest first, at most
 * 100 with the unread count, in one statement; marked read by id or all at once, as the user.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";

/** The most notifications one read lists. */
export const MAX_LISTED = 100;
/** The most ids one mark-read request names. */
const MAX_READ_IDS = 1000;

/** One notification as the API shows it. */
interface Notification {
  id: string;
  kind: "now_streaming";
  catalogId: number;
  title: string;
  provider: { id: number; name: string; logo: string };
  region: string;
  createdAt: string;
  readAt: string | null;
}

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
        'providerLogo', x.provider_logo, 'region', x.region, 'createdAt', x.created,
        'readAt', x.read) order by x.created_at desc, x.id desc)
      from (select n.*, coalesce(m.title, '') as title,
              to_char(n.created_at at time zone 'UTC', ${ISO}) as created,
              to_char(n.read_at at time zone 'UTC', ${ISO}) as read
              from public.user_notifications n
              left join public.movies m on m.catalog_id = n.catalog_id
             where n.user_id = $1::uuid and ($2::boolean = false or n.read_at is null)
             order by n.created_at desc, n.id desc limit ${MAX_LISTED}) x), '[]'::jsonb) as list`;

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
  const notifications = (raw as Record<string, unknown>[]).map((n): Notification => ({
    id: String(n.id),
    kind: "now_streaming",
    catalogId: Number(n.catalogId),
    title: String(n.title),
    provider: {
      id: Number(n.providerId),
      name: String(n.providerName),
      logo: n.providerLogo ? `${options.imageBaseUrl}/w92${n.providerLogo}` : "",
    },
    region: String(n.region),
    createdAt: String(n.createdAt),
    readAt: n.readAt === null ? null : String(n.readAt),
  }));
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
