/**
 * An alert in plain words (docs/availability.md, "Notifications"): what follows the film's title
 * on /notifications and in the digest mail, the same in both.
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

/** "6 Dec 2026" for a YYYY-MM-DD day. */
function day(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return at.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

const RELEASE_WORDS: Record<string, string> = {
  in_theaters: "is in theaters",
  on_digital: "is out on digital",
  on_physical: "is out on disc",
};

/**
 * The words after the title: "is now streaming on Netflix" (the page adds the region, the mail
 * keeps its earlier words), "is in theaters (US, from 6 Dec 2026)", "is out on digital (...)",
 * "is out on disc (...)".
 */
export function alertWords(alert: FilmAlert): string {
  const region = alert.region ?? "";
  const words = RELEASE_WORDS[alert.kind];
  if (words) {
    return alert.releaseDate
      ? `${words} (${region}, from ${day(alert.releaseDate)})`
      : `${words} (${region})`;
  }
  return `is now streaming on ${alert.providerName || "one of your services"}`;
}
