/**
 * The /calendar page's month (docs/calendar.md, "The page"): which month `?month=` names (else
 * today's, in UTC), its first and last day, its weeks from Monday, and the months either side.
 */

/** A month as the page shows it. */
export interface CalendarMonth {
  /** YYYY-MM. */
  key: string;
  /** First and last day, YYYY-MM-DD. */
  from: string;
  to: string;
  previous: string;
  next: string;
  /** Weeks Monday to Sunday; a day outside the month is null. */
  weeks: (string | null)[][];
}

const pad = (n: number) => String(n).padStart(2, "0");

function key(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** The month `raw` names (YYYY-MM, years 1900-2199), or today's when it names none. */
export function calendarMonth(raw: string | null, now: number): CalendarMonth {
  const today = new Date(now);
  let year = today.getUTCFullYear();
  let month = today.getUTCMonth();
  const m = /^(\d{4})-(\d{2})$/.exec(raw ?? "");
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) >= 1900 && Number(m[1]) < 2200) {
    year = Number(m[1]);
    month = Number(m[2]) - 1;
  }
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [
    ...Array(lead).fill(null),
    ...Array.from({ length: days }, (_, i) => `${key(year, month)}-${pad(i + 1)}`),
  ];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  return {
    key: key(year, month),
    from: `${key(year, month)}-01`,
    to: `${key(year, month)}-${pad(days)}`,
    previous: key(year, month - 1),
    next: key(year, month + 1),
    weeks,
  };
}
