/**
 * "Only what I can stream" (docs/availability.md): the prompt names the user's services and
 * region, and the picks are checked against them; one not available to the user is dropped,
 * and the rounds go on as for any other invalid pick.
 */
import type { ChatMessage } from "./providers.ts";

/** A user's streaming filter: their services by name, their region, and the check. */
export interface StreamingFilter {
  names: string[];
  region: string;
  /** Of `ids`, those available to the user (providers refreshed when older than 7 days). */
  keep(ids: number[]): Promise<Set<number>>;
}

/** The user message with the services the picks must stream on. */
export function withServices(messages: ChatMessage[], filter?: StreamingFilter): ChatMessage[] {
  if (!filter) return messages;
  const names = filter.names.filter(Boolean).map((n) => n.replace(/\s+/g, " ").slice(0, 60));
  const line = `Only recommend movies the viewer can stream in region ${filter.region} ` +
    `(included with a subscription, free, or free with ads) on: ${
      names.length ? names.join(", ") : "their chosen services"
    }.`;
  return messages.map((m) => m.role === "user" ? { ...m, content: `${m.content}\n${line}` } : m);
}
