/**
 * The one-line reason of each AI pick (docs/recommend.md): plain text with markup
 * stripped, at most 200 characters, and empty when it names the user (email or id). A pick
 * whose reason is unusable keeps an empty one; a reason never fails a generation.
 */

/** Longest reason kept; a longer one is dropped rather than cut mid-thought. */
export const MAX_REASON_CHARS = 200;

/** Who the reason must never name. */
interface ReasonOwner {
  email?: string | null;
  userId?: string | null;
}

/** The prompt's sentence on reasons, shared by the system prompt and the schema. */
export const REASON_INSTRUCTION =
  `Give each film a "reason": one plain-text line (no markup, at most ${MAX_REASON_CHARS} characters) ` +
  "on why this viewer would like it, drawn from the profile.";

/** The `reason` property of the JSON schema sent as `response_format`. */
export const REASON_SCHEMA = {
  type: "string",
  description:
    `One plain-text line, at most ${MAX_REASON_CHARS} characters: why this viewer would like it.`,
} as const;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function stripMarkup(text: string): string {
  return text
    // HTML: drop script/style bodies whole, then every tag.
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name])
    // Markdown: images and links keep their text, emphasis and code marks go.
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|\*|`+|~~)/g, "")
    .replace(/^\s*(#{1,6}|>|[-+]\s)\s*/gm, "")
    // Whatever survived as an angle bracket is not plain text either.
    .replace(/[<>]/g, "");
}

/** The reason as stored: plain text on one line, or "" when unusable. */
export function cleanReason(raw: unknown, owner: ReasonOwner = {}): string {
  if (typeof raw !== "string") return "";
  const text = stripMarkup(raw)
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text || [...text].length > MAX_REASON_CHARS) return "";
  const lower = text.toLowerCase();
  for (const secret of [owner.email, owner.userId]) {
    if (secret && lower.includes(secret.trim().toLowerCase())) return "";
  }
  return text;
}
