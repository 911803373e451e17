/** A user's notifications: the list with its unread count, mark read, their words, the digest mail. */
export {
  countUnread,
  listNotifications,
  markRead,
  markReadSchema,
  MAX_LISTED,
  type Notification,
  type NotificationList,
  parseMarkRead,
} from "./notifications.ts";
export { sendDigests } from "./digest.ts";
export { alertWords } from "./alert_words.ts";
export { verifyUnsubscribeToken } from "./unsubscribe_token.ts";
