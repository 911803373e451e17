/**
 * The release calendar's query (docs/calendar.md): `from`/`to` (inclusive days, at most 400
 * apart), `types` and `list`; anything else is 400 `invalid_query`.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** The calendar's release types, in the order a day lists them. */
export const CALENDAR_TYPES = ["premiere", "theatrical", "digital", "physical", "tv"] as const;
/** One release type as the API names it. */
export type CalendarType = typeof CALENDAR_TYPES[number];
/** Whose films: My List, the watched list, or those and every own list. */
type CalendarList = "mylist" | "watched" | "all";

/** The longest span between `from` and `to`, in days. */
export const MAX_SPAN_DAYS = 400;
/** Days before today and after it that a calendar without dates covers. */
const DEFAULT_BEFORE_DAYS = 30;
/** See DEFAULT_BEFORE_DAYS. */
const DEFAULT_AFTER_DAYS = 180;

const DAY_MS = 86_400_000;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** GET /api/calendar's query as documented. */
export const calendarQuerySchema = z.object({
  from: day.optional().meta({
    description: `First day (YYYY-MM-DD, inclusive); default ${DEFAULT_BEFORE_DAYS} days before ` +
      `today (UTC), or \`to\` minus ${DEFAULT_BEFORE_DAYS + DEFAULT_AFTER_DAYS} days.`,
  }),
  to: day.optional().meta({
    description: `Last day (inclusive), at most ${MAX_SPAN_DAYS} days after \`from\`; default ` +
      `${DEFAULT_AFTER_DAYS} days after today, or \`from\` plus ` +
      `${DEFAULT_BEFORE_DAYS + DEFAULT_AFTER_DAYS} days.`,
  }),
  types: z.string().optional().meta({
    description: `Comma list of ${CALENDAR_TYPES.join(", ")}; default all.`,
  }),
  list: z.enum(["mylist", "watched", "all"]).optional().meta({
    description: "mylist (default), watched, or all (My List, watched and every own list).",
  }),
});

/** A parsed calendar query. */
export interface CalendarQuery {
  from: string;
  to: string;
  types: CalendarType[];
  list: CalendarList;
}

function bad(detail: string): Problem {
  return new Problem(400, "invalid_query", detail);
}

/** Milliseconds of a YYYY-MM-DD day at 00:00 UTC, or null for a day no calendar has. */
function dayMs(text: string): number | null {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? null : ms;
}

function dayText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The query of `params` with its defaults, given today's instant; 400 `invalid_query` for an
 * unknown parameter (unless `ignoreUnknown`: the feed, where calendar apps add their own), a
 * date that is not a real YYYY-MM-DD day, `from` after `to`, more than 400 days, an unknown type
 * or list.
 */
export function parseCalendarQuery(
  params: URLSearchParams,
  options: { now: number; ignoreUnknown?: boolean },
): CalendarQuery {
  const known = new Set(Object.keys(calendarQuerySchema.shape));
  const raw: Record<string, string> = {};
  for (const [k, v] of params) {
    if (!known.has(k)) {
      if (options.ignoreUnknown) continue;
      throw bad(`Unknown parameter ${k}.`);
    }
    if (k in raw) throw bad(`${k} is given twice.`);
    raw[k] = v;
  }
  const q = calendarQuerySchema.safeParse(raw);
  if (!q.success) {
    throw bad("from and to are YYYY-MM-DD days; list is mylist, watched or all.");
  }
  const span = (DEFAULT_BEFORE_DAYS + DEFAULT_AFTER_DAYS) * DAY_MS;
  const fromMs = q.data.from === undefined ? null : dayMs(q.data.from);
  const toMs = q.data.to === undefined ? null : dayMs(q.data.to);
  if (
    (q.data.from !== undefined && fromMs === null) || (q.data.to !== undefined && toMs === null)
  ) {
    throw bad("from and to must be days that exist (YYYY-MM-DD).");
  }
  const today = Math.floor(options.now / DAY_MS) * DAY_MS;
  const from = fromMs ?? (toMs !== null ? toMs - span : today - DEFAULT_BEFORE_DAYS * DAY_MS);
  const to = toMs ?? (fromMs !== null ? fromMs + span : today + DEFAULT_AFTER_DAYS * DAY_MS);
  if (from > to) throw bad("from is after to.");
  if (to - from > MAX_SPAN_DAYS * DAY_MS) {
    throw bad(`from and to are at most ${MAX_SPAN_DAYS} days apart.`);
  }
  return {
    from: dayText(from),
    to: dayText(to),
    types: parseTypes(q.data.types),
    list: q.data.list ?? "mylist",
  };
}

function parseTypes(raw: string | undefined): CalendarType[] {
  if (raw === undefined) return [...CALENDAR_TYPES];
  const names = raw.split(",").map((t) => t.trim());
  const wanted = new Set<string>();
  for (const name of names) {
    if (!(CALENDAR_TYPES as readonly string[]).includes(name)) {
      throw bad(`types is a comma list of ${CALENDAR_TYPES.join(", ")}.`);
    }
    wanted.add(name);
  }
  return CALENDAR_TYPES.filter((t) => wanted.has(t));
}
