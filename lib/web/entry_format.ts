/**
 * How the website shows a watched entry: a 1-10 rating as 0.5-5 stars and a watch date as
 * "5 Jan 2024". Formatted by hand, so the server's render and the browser's hydration agree
 * whatever their locales and time zones.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A 1-10 rating as stars: 7 → "3.5". */
export function starsOf(rating: number): string {
  return String(rating / 2);
}

/** A rating's accessible text: "3.5 of 5 stars", or "Not rated". */
export function ratingText(rating: number | null): string {
  return rating ? `${starsOf(rating)} of 5 stars` : "Not rated";
}

/** `YYYY-MM-DD` as "5 Jan 2024". */
export function formatDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** Today in the browser's own time zone, `YYYY-MM-DD` (what "watched today" means to the user). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
