/**
 * What the prompt asks beyond the taste profile (prompt.ts): the one-line reason for each pick,
 * up to 30 dismissed titles as "not interested", the user's 👍/👎 on earlier picks, and the
 * bound every prompt is cut to (docs/recommend.md). Appended to the messages buildMessages
 * made, never a user id or email.
 */
import type { ChatMessage } from "./providers.ts";
import { REASON_INSTRUCTION } from "./reasons.ts";

/** Dismissed titles in the prompt. */
export const NOT_INTERESTED_TITLES = 30;
/** 👍 and 👎 titles in the prompt, each. */
export const FEEDBACK_TITLES = 15;
/**
 * The most characters the messages may take as JSON (what a provider receives of them). The
 * tests hold every prompt under 30,000; this leaves room for the request's other fields.
 */
export const PROMPT_MAX_CHARS = 29_000;
const TITLE_CHARS = 110;

const clean = (title: string) => title.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS);

// Appends `section` to the first user message only: the two stages' candidates message
// (prompt.ts) comes after it and stays the last word.
function appendToProfile(messages: ChatMessage[], section: string): ChatMessage[] {
  const first = messages.findIndex((m) => m.role === "user");
  return messages.map((m, i) => (i === first ? { ...m, content: `${m.content}\n${section}` } : m));
}

/** `messages` with the reason instruction on the system message and the dismissed titles. */
export function withReasonsAndDismissed(
  messages: ChatMessage[],
  options: { notInterested: string[] },
): ChatMessage[] {
  const titles = [...new Set(options.notInterested)].slice(0, NOT_INTERESTED_TITLES);
  const withReason = messages.map((message) =>
    message.role === "system"
      ? { ...message, content: `${message.content} ${REASON_INSTRUCTION}` }
      : message
  );
  if (titles.length === 0) return withReason;
  return appendToProfile(
    withReason,
    [
      "Not interested (the viewer dismissed these; do not recommend them or close variants):",
      ...titles.map((title) => `- ${clean(title)}`),
    ].join("\n"),
  );
}

/** The user's 👍 and 👎 on earlier picks, as titles (`Title (year)`), newest first. */
export interface FeedbackTitles {
  liked: string[];
  disliked: string[];
}

/**
 * `messages` with the 👍 titles ("more like these") and the 👎 ones ("fewer like these") on the
 * profile; no feedback adds no line.
 */
export function withFeedback(messages: ChatMessage[], feedback?: FeedbackTitles): ChatMessage[] {
  const liked = [...new Set(feedback?.liked ?? [])].slice(0, FEEDBACK_TITLES);
  const disliked = [...new Set(feedback?.disliked ?? [])].slice(0, FEEDBACK_TITLES);
  const lines: string[] = [];
  if (liked.length > 0) {
    lines.push("Earlier suggestions the viewer liked (thumbs up; more like these):");
    lines.push(...liked.map((title) => `- ${clean(title)}`));
  }
  if (disliked.length > 0) {
    lines.push("Earlier suggestions the viewer disliked (thumbs down; fewer like these):");
    lines.push(...disliked.map((title) => `- ${clean(title)}`));
  }
  return lines.length > 0 ? appendToProfile(messages, lines.join("\n")) : messages;
}

// The sections cut when a prompt is over its bound, first to last, by the start of their
// heading; `fromTop` cuts the first lines (the oldest of the "do not recommend" list), else the
// last (the least recent, or the candidates the first stage ranked lowest).
const CUT_ORDER: { heading: string; fromTop: boolean }[] = [
  { heading: "Do not recommend", fromTop: true },
  { heading: "Films watched", fromTop: false },
  { heading: "Saved to watch later", fromTop: false },
  { heading: "Not interested", fromTop: false },
  { heading: "Liked (rated", fromTop: false },
  { heading: "Earlier suggestions the viewer liked", fromTop: false },
  { heading: "Earlier suggestions the viewer disliked", fromTop: false },
  { heading: "Disliked (rated", fromTop: false },
  { heading: "Loved (rated", fromTop: false },
  { heading: "Candidates", fromTop: false },
];
// Each section keeps this many lines until every section is down to it.
const KEPT_FIRST = 10;
const ITEM = /^(- |\d+\. )/;

/**
 * `messages` cut to PROMPT_MAX_CHARS: list lines are dropped, section by section in CUT_ORDER
 * (each down to 10 lines first, then further in the same order), until the JSON fits.
 */
export function withinBound(messages: ChatMessage[]): ChatMessage[] {
  let size = JSON.stringify(messages).length;
  if (size <= PROMPT_MAX_CHARS) return messages;
  const texts = messages.map((m) => m.content.split("\n"));
  // A dropped line takes its JSON text and the escaped newline before it.
  const cost = (line: string) => JSON.stringify(line).length - 2 + 2;
  for (const floor of [KEPT_FIRST, 0]) {
    for (const { heading, fromTop } of CUT_ORDER) {
      for (const lines of texts) {
        const start = lines.findIndex((l) => l.startsWith(heading));
        if (start < 0) continue;
        let end = start + 1;
        while (end < lines.length && ITEM.test(lines[end])) end++;
        let count = end - start - 1;
        while (count > floor && size > PROMPT_MAX_CHARS) {
          const at = fromTop ? start + 1 : start + count;
          size -= cost(lines[at]);
          lines.splice(at, 1);
          count--;
        }
      }
      if (size <= PROMPT_MAX_CHARS) break;
    }
    if (size <= PROMPT_MAX_CHARS) break;
  }
  return messages.map((m, i) => ({ ...m, content: texts[i].join("\n") }));
}
