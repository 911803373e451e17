/** Media-server connections: the webhook URL and settings, the receivers, the recent events. */
export { type ConnectionsService, createConnectionsService } from "./service.ts";
export { MAX_HOOK_BODY_BYTES, payloadTooLarge } from "./body.ts";
export { createGuessLimit } from "./guess_limit.ts";
export { type ReceivedEvent } from "./events.ts";
export type { ConnectionSettings } from "./settings.ts";
