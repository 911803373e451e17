/**
 * The release calendar as RFC 5545 text (docs/calendar.md, "The iCal feed"), written by
 * ical-generator: CRLF lines folded at 75 octets, one all-day VEVENT per release with a UID that
 * stays the same across fetches (`<catalogId>-<type>-<region>@<host>`), so a calendar app
 * updates an event in place when its date moves.
 */
import { ICalCalendar } from "ical-generator";
import type { CalendarEvent, CalendarType } from "@/lib/library/calendar/mod.ts";

/**
 * The version of the text written here: part of the feed's ETag, so a client holding the tag of
 * an older format gets the new text on its next poll.
 */
export const ICS_FORMAT = 2;

const SUMMARY: Record<CalendarType, string> = {
  premiere: "premieres",
  theatrical: "in theaters",
  digital: "on digital",
  physical: "on disc",
  tv: "on TV",
};

const KIND: Record<CalendarType, string> = {
  premiere: "Premiere",
  theatrical: "Theatrical release",
  digital: "Digital release",
  physical: "Disc release",
  tv: "TV premiere",
};

const REGIONS = new Intl.DisplayNames(["en"], { type: "region" });

// Country names asked once per code: Intl.DisplayNames takes about 2 µs a call, 3 ms a feed.
const regionNames = new Map<string, string>();

function regionName(code: string): string {
  let name = regionNames.get(code);
  if (name === undefined) {
    try {
      name = REGIONS.of(code) ?? code;
    } catch {
      name = code;
    }
    regionNames.set(code, name);
  }
  return name;
}

/** "Title (2026) in theaters"; a film without a stored title is named by its id. */
function summaryOf(e: CalendarEvent): string {
  const title = e.title || `Film ${e.catalogId}`;
  return `${e.year ? `${title} (${e.year})` : title} ${SUMMARY[e.type]}`;
}

function descriptionOf(e: CalendarEvent, region: string, url: string): string {
  const parts = [`${KIND[e.type]} in ${regionName(e.region ?? region)}.`];
  if (e.note) parts.push(`${e.note}.`);
  if (e.certification) parts.push(`Rated ${e.certification}.`);
  return `${parts.join(" ")}\n${url}`;
}

/** The feed's text for `events` seen from `region`; `now` is every event's DTSTAMP. */
export function calendarIcs(
  events: CalendarEvent[],
  options: { siteUrl: string; region: string; name: string; now: number },
): string {
  const site = options.siteUrl.replace(/\/+$/, "");
  const host = new URL(site).hostname;
  const calendar = new ICalCalendar({
    name: options.name,
    prodId: { company: host, product: "release calendar", language: "EN" },
  });
  const stamp = new Date(options.now);
  const shell = calendar.toString();
  for (const e of events) {
    const url = `${site}/movies/${e.catalogId}`;
    calendar.createEvent({
      id: `${e.catalogId}-${e.type}-${e.region ?? options.region}@${host}`,
      stamp,
      // A day, not an instant: written as DTSTART;VALUE=DATE from the UTC date.
      start: new Date(`${e.date}T00:00:00Z`),
      allDay: true,
      summary: summaryOf(e),
      description: descriptionOf(e, options.region, url),
      url,
    });
  }
  // The library writes every line; the events are folded here, since its own folding encodes
  // each character with a new TextEncoder (0.4 ms an event: 500 films took 0.7 s). The shell
  // (BEGIN to END:VCALENDAR, no event) is the library's, folded by it. RFC 5545 ends every
  // content line with CRLF, the last one too.
  const body = calendar.events().map((e) => e.toString()).join("");
  return `${shell.replace(/END:VCALENDAR$/, () => foldLines(body))}END:VCALENDAR\r\n`;
}

/** UTF-8 octets of one code point. */
function octets(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// Printable ASCII and tab: one octet a character (anything else is walked).
const ASCII = /^[\t -~]*$/;

/**
 * CRLF-ended lines folded at 75 octets (RFC 5545 3.1), never inside a character. Most lines are
 * ASCII, where a character is an octet: those are cut by length, and only a line with other
 * characters is walked one code point at a time (walking every line took 20 ms a feed of 1,500
 * events).
 */
function foldLines(text: string): string {
  let out = "";
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    if (ASCII.test(line)) {
      // 75 octets on the first line, the space and 74 on every line after it.
      out += line.slice(0, 75);
      for (let i = 75; i < line.length; i += 74) out += "\r\n " + line.slice(i, i + 74);
      out += "\r\n";
      continue;
    }
    let width = 0;
    for (const ch of line) {
      const n = octets(ch.codePointAt(0)!);
      if (width + n > 75) {
        out += "\r\n ";
        width = 1;
      }
      out += ch;
      width += n;
    }
    out += "\r\n";
  }
  return out;
}

/**
 * The calendar feed's URL beside the My List feed's (the same secret), with the page's filters
 * when they are not the defaults.
 */
export function calendarFeedUrl(
  mylistFeedUrl: string,
  filters: { types: CalendarType[]; allTypes: boolean; list: string },
): string {
  const url = new URL(mylistFeedUrl.replace(/mylist\.json$/, "calendar.ics"));
  if (!filters.allTypes) url.searchParams.set("types", filters.types.join(","));
  if (filters.list !== "mylist") url.searchParams.set("list", filters.list);
  return url.toString().replaceAll("%2C", ",");
}
