/**
 * The messages sent to the AI: a compact taste profile (docs/recommend.md). It carries
 * titles, years, genres and counts only, never a user id or email, and every part is capped,
 * so its size is bounded whatever the history's length. With the two stages a last message
 * lists the local recommender's candidates and asks the AI to choose and order among them
 * (docs/recommend.md, "Two stages").
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
/** Local candidates listed to the AI (the first stage's best). */
export const CANDIDATE_TITLES = 60;
/** Films of the AI's own choosing, beyond the candidates, it is asked to keep to. */
export const OWN_CHOICES = 5;

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

/**
 * The two stages' last message: the local candidates (labels, best first), numbered, and the
 * request to choose and order `want` of them with at most OWN_CHOICES of the AI's own.
 */
export function candidatesMessage(candidates: string[], options: { want: number }): ChatMessage {
  const { want } = options;
  return {
    role: "user",
    content: [
      "Candidates a recommender found for this viewer in this site's catalog, best first:",
      ...candidates.slice(0, CANDIDATE_TITLES).map((title, i) => `${i + 1}. ${title}`),
      `Choose the ${want} films from these candidates this viewer will like most and order ` +
      `them best first. At most ${OWN_CHOICES} of the ${want} may be films of your own ` +
      "choosing that are not in the list, and only where they fit the viewer clearly better.",
    ].join("\n"),
  };
}
