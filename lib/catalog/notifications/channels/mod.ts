/** The alert channels (docs/alerts.md): each type's sender. */
export { SENDERS } from "./senders.ts";
