/** Media-server connections: the webhook URL and settings, the receivers, the recent events. */
export {
  type ConnectionsService,
  createConnectionsService,
  HOOK_LIMIT,
  type HookAnswer,
  type HookOwner,
} from "./service.ts";
export { MAX_HOOK_BODY_BYTES, payloadTooLarge } from "./body.ts";
export { KEPT_EVENTS, type ReceivedEvent } from "./events.ts";
export type { ConnectionSettings } from "./settings.ts";
export type { MediaSource } from "./media_event.ts";
