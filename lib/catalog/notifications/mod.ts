/** A user's notifications: the list with its unread count, mark read, and the digest mail. */
export {
  countUnread,
  listNotifications,
  markRead,
  markReadSchema,
  MAX_LISTED,
  type NotificationList,
  parseMarkRead,
} from "./notifications.ts";
export { sendDigests } from "./digest.ts";
export { verifyUnsubscribeToken } from "./unsubscribe_token.ts";
