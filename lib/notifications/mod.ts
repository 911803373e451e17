/** A user's notifications: the list with its unread count, mark read, and the digest mail. */
export {
  countUnread,
  listNotifications,
  type MarkRead,
  markRead,
  markReadSchema,
  MAX_LISTED,
  MAX_READ_IDS,
  type Notification,
  type NotificationList,
  parseMarkRead,
} from "./notifications.ts";
export { digestMail, sendDigests } from "./digest.ts";
export { unsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe_token.ts";
