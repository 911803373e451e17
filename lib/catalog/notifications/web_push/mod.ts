/** Web Push: the server's VAPID keys, the subscription a channel is made with, the payload. */
export { vapidKeys, vapidSubject } from "./vapid_keys.ts";
export { pushSubscriptionSchema } from "./subscription.ts";
export { pushPayload } from "./payload.ts";
