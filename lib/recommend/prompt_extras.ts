/**
 * What the prompt asks beyond the taste profile (prompt.ts): the one-line reason for each pick,
 * and up to 30 dismissed titles as "not interested" (docs/recommend.md). Appended to the
 * messages buildMessages made, never a user id or email.
 */
import type { ChatMessage } from "./providers.ts";
import { REASON_INSTRUCTION } from "./reasons.ts";

/** Dismissed titles in the prompt. */
export const NOT_INTERESTED_TITLES = 30;
const TITLE_CHARS = 110;

/** `messages` with the reason instruction on the system message and the dismissed titles. */
export function withReasonsAndDismissed(
  messages: ChatMessage[],
  options: { notInterested: string[] },
): ChatMessage[] {
  const titles = [...new Set(options.notInterested)].slice(0, NOT_INTERESTED_TITLES);
  return messages.map((message) => {
    if (message.role === "system") {
      return { ...message, content: `${message.content} ${REASON_INSTRUCTION}` };
    }
    if (titles.length === 0) return message;
    const section = [
      "Not interested (the viewer dismissed these; do not recommend them or close variants):",
      ...titles.map((title) => `- ${title.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS)}`),
    ].join("\n");
    return { ...message, content: `${message.content}\n${section}` };
  });
}
