/**
 * An alert in plain words (docs/availability.md, "Notifications"): what follows the film's title
 * on /notifications and in the digest mail, the same in both, and the words and day the channels'
 * messages are written with (channels/message.ts).
 */

/** What the words of a film's alert need. */
interface FilmAlert {
  kind: string;
  region: string | null;
  /** The provider's name (now streaming). */
  providerName?: string | null;
  /** YYYY-MM-DD (release kinds). */
  releaseDate?: string | null;
}

/** "6 Dec 2026" for a YYYY-MM-DD day (or a timestamp starting with one). */
export function alertDay(date: string): string {
  const at = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return at.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** A release kind's words: after the title ("is in theaters"), and opening a sentence ("In theaters"). */
export const RELEASE_WORDS: Record<string, { headline: string; where: string }> = {
  in_theaters: { headline: "is in theaters", where: "In theaters" },
  on_digital: { headline: "is out on digital", where: "On digital" },
  on_physical: { headline: "is out on disc", where: "On disc" },
};

/**
 * The words after the title: "is now streaming on Netflix" (the page adds the region, the mail
 * keeps its earlier words), "is in theaters (US, from 6 Dec 2026)", "is out on digital (...)",
 * "is out on disc (...)".
 */
export function alertWords(alert: FilmAlert): string {
  const region = alert.region ?? "";
  const words = RELEASE_WORDS[alert.kind]?.headline;
  if (words) {
    return alert.releaseDate
      ? `${words} (${region}, from ${alertDay(alert.releaseDate)})`
      : `${words} (${region})`;
  }
  return `is now streaming on ${alert.providerName || "one of your services"}`;
}
