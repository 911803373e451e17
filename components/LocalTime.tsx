/**
 * A `<time>` in the reader's own time zone. The server renders UTC (it cannot know the zone), the
 * browser's first render matches it so hydration is clean, then an effect rewrites it locally.
 * Only inside an island does the rewrite run; elsewhere the UTC text stays, marked "UTC".
 */
import { useEffect, useState } from "preact/hooks";
import { formatInstant, readerTimeZone, type TimeStyle } from "../lib/web/local_time.ts";

/** `iso` shown as a day, a clock time or both. */
export function LocalTime({ iso, style }: { iso: string; style: TimeStyle }) {
  const [zone, setZone] = useState<string | undefined>(undefined);
  useEffect(() => setZone(readerTimeZone()), []);
  return <time datetime={iso}>{formatInstant(iso, style, zone)}</time>;
}
