/**
 * Dates and times as the reader's clock shows them. The server does not know the reader's time
 * zone, so it renders UTC, marked as such ("14:05 UTC"); in the browser the same `<time>` is
 * rewritten in the reader's own zone ("15:05"). Both from the same formatter, so they differ only
 * in the zone.
 */

/** What to show of an instant: a day ("23 Nov 2026"), a clock time, or both. */
export type TimeStyle = "day" | "time" | "moment";

/** `iso` in `timeZone` (UTC, marked, when none is given: the server's render); "" if not a date. */
export function formatInstant(iso: string, style: TimeStyle, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const zone = timeZone ?? "UTC";
  const dayText = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: zone,
  }).format(date);
  const timeText = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(date) + (timeZone ? "" : " UTC");
  return style === "day" ? dayText : style === "time" ? timeText : `${dayText}, ${timeText}`;
}

/** The browser's own time zone (undefined where Intl cannot say). */
export function readerTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
