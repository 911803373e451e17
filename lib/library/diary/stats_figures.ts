/**
 * How every page says the watching figures (docs/diary.md, "The figures, one definition each"):
 * /watched's strip, /stats, /stats/YYYY and the public profile format the same numbers the same
 * way, so one figure never reads as two.
 */

/** Minutes as the figures' hours: to one decimal (GET /api/stats's `hours`, every page's). */
export function hoursOf(minutes: number): number {
  return Math.round(minutes / 6) / 10;
}

/** Hours as the pages show them: "3.4", "1,234.5", "12". */
export function hoursText(hours: number): string {
  return hours.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

/** A count as the pages show it, with thousands separated: "4,555". */
export function countText(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * The average rating (1-10 scale, as GET /api/stats gives it) as stars out of five with one
 * decimal, on every page: 6.23 is "3.1★", never "3★" on one page and "3.1" on another.
 */
export function averageStars(average: number): string {
  return `${(average / 2).toFixed(1)}★`;
}

/** What the average is taken over: "1 rated viewing", "4,555 rated viewings". */
export function ratedViewings(count: number): string {
  return `${countText(count)} rated viewing${count === 1 ? "" : "s"}`;
}
