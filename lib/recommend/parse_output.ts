/**
 * Reads the assistant's content into candidates (docs/recommend.md). Providers that ignore
 * the JSON schema answer free text, so the content is validated even on a 200: code fences
 * and a bare top-level array are tolerated, anything else is rejected.
 */
import { z } from "zod";
import { REASON_SCHEMA } from "./reasons.ts";

// Far beyond the 200 characters kept: only a bound on what is held before cleaning.
const MAX_RAW_REASON = 2000;

/** One movie the AI proposes. */
export interface Candidate {
  title: string;
  year: number | null;
  reason: string;
}

const candidateSchema = z.object({
  title: z.string().trim().min(1).max(300),
  // Some models quote the year; a quoted integer is still a year.
  year: z.union([z.number(), z.string().regex(/^\s*\d{4}\s*$/).transform(Number)])
    .pipe(z.number().int().min(1870).max(2200)).nullable().optional()
    .transform((y) => y ?? null),
  // A reason never costs a pick: anything unusable becomes "" (lib/recommend/reasons.ts
  // cleans the rest once the owner is known).
  reason: z.unknown().optional().transform((r) =>
    typeof r === "string" && r.length <= MAX_RAW_REASON ? r : ""
  ),
});

const outputSchema = z.object({
  recommendations: z.array(z.unknown()).max(200),
});

/** The JSON schema sent as `response_format` (strict: every property required, no extras). */
export const OUTPUT_JSON_SCHEMA = {
  type: "object",
  properties: {
    recommendations: {
      type: "array",
      items: {
        type: "object",
        properties: {
          title: { type: "string" },
          year: { type: ["integer", "null"] },
          reason: REASON_SCHEMA,
        },
        required: ["title", "year", "reason"],
        additionalProperties: false,
      },
    },
  },
  required: ["recommendations"],
  additionalProperties: false,
} as const;

/** The content did not hold recommendations in the agreed shape. */
export class BadOutputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "BadOutputError";
  }
}

function unfence(text: string): string {
  const fenced = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/.exec(text);
  return (fenced ? fenced[1] : text).trim();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Some models wrap the JSON in a sentence: take the outermost object or array.
    const start = text.search(/[[{]/);
    const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
    if (start < 0 || end <= start) throw new BadOutputError("the content holds no JSON");
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      throw new BadOutputError("the content is not valid JSON");
    }
  }
}

/**
 * The JSON of an answer's content, read as leniently as the recommendations are (a code fence,
 * JSON inside a sentence); throws BadOutputError when there is none (Tonight's interpretation).
 */
export function contentJson(content: string | null | undefined): unknown {
  if (!content || !content.trim()) throw new BadOutputError("the content is empty");
  return parseJson(unfence(content));
}

/**
 * Parses the content into candidates. Items that are not a valid candidate are dropped;
 * throws BadOutputError when the content is not the agreed shape or holds no valid item.
 */
export function parseOutput(content: string | null | undefined): Candidate[] {
  if (!content || !content.trim()) throw new BadOutputError("the content is empty");
  let json = parseJson(unfence(content));
  if (Array.isArray(json)) json = { recommendations: json };
  const parsed = outputSchema.safeParse(json);
  if (!parsed.success) throw new BadOutputError("the JSON is not {recommendations:[...]}");
  const candidates: Candidate[] = [];
  for (const item of parsed.data.recommendations) {
    const one = candidateSchema.safeParse(item);
    if (one.success) candidates.push(one.data);
  }
  if (candidates.length === 0) throw new BadOutputError("no recommendation has a title");
  return candidates;
}
