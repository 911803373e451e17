/**
 * The messages sent to the AI: a compact taste profile (docs/recommend.md). It carries
 * titles, years, genres and counts only, never a user id or email, and every part is capped,
 * so its size is bounded whatever the history's length.
 */
import type { ChatMessage } from "./providers.ts";
import { ratedSections } from "./rated.ts";
import {
  MY_LIST_TITLES,
  RECENT_TITLES,
  type Taste,
  type TitledMovie,
  TOP_GENRES,
} from "./taste.ts";

/** Titles in the "do not suggest" list. */
export const AVOID_TITLES = 80;
const TITLE_CHARS = 100;

/** A movie as one short line: `Title (1999)`. */
export function label(movie: { title: string; year?: number | null }): string {
  const title = movie.title.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS);
  return movie.year ? `${title} (${movie.year})` : title;
}

function withGenres(movie: TitledMovie): string {
  const genres = movie.genres.slice(0, 4).join(", ");
  return genres ? `${label(movie)} [${genres}]` : label(movie);
}

const SYSTEM = [
  "You recommend feature films to one viewer from their taste profile.",
  'Answer with JSON only, exactly {"recommendations":[{"title":string,"year":integer|null,"reason":string}]}.',
  "Use each film's best-known English title and its original release year.",
  "Recommend only real, released films the viewer has not watched, each once, with a one-sentence reason.",
].join(" ");

/** Builds the system and user messages asking for `want` films, avoiding the `avoid` titles. */
export function buildMessages(
  taste: Taste,
  options: { want: number; avoid: string[] },
): ChatMessage[] {
  const lines: string[] = [];
  lines.push(`Films watched: ${taste.watchedIds.length}. Most recent first:`);
  for (const movie of taste.recent.slice(0, RECENT_TITLES)) lines.push(`- ${withGenres(movie)}`);
  if (taste.genres.length > 0) {
    lines.push(
      `Genres of the watched films (count): ${
        taste.genres.slice(0, TOP_GENRES).map((g) => `${g.name.slice(0, 40)} ${g.count}`).join(", ")
      }.`,
    );
  }
  lines.push(...ratedSections(taste.rated));
  if (taste.myList.length > 0) {
    lines.push("Saved to watch later (at most 2 of these may be recommended):");
    for (const movie of taste.myList.slice(0, MY_LIST_TITLES)) lines.push(`- ${label(movie)}`);
  }
  const avoid = [...new Set(options.avoid)].slice(-AVOID_TITLES);
  if (avoid.length > 0) {
    lines.push("Do not recommend any of these:");
    for (const title of avoid) lines.push(`- ${title.slice(0, TITLE_CHARS + 8)}`);
  }
  lines.push(`Recommend ${options.want} films.`);
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: lines.join("\n") },
  ];
}
