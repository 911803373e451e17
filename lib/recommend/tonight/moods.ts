/**
 * Tonight's moods (docs/recommend.md, "Tonight"): each preset is a soft preference over the
 * features the local model stores (genres, keywords, runtime), never a hard filter. A film's
 * mood fit is the share of its genres the mood wants minus the share it shuns, plus its keyword
 * and runtime terms; reasons name only what matched.
 */

/** The moods, as the API and the AI name them. */
export const MOOD_KEYS = ["light", "tense", "cry", "mindBending", "short"] as const;
/** One mood. */
export type MoodKey = typeof MOOD_KEYS[number];

/** What a mood prefers; the page's preset label with it. */
interface Mood {
  label: string;
  /** Genres that fit (+1 each, shared over the film's genres). */
  wants: string[];
  /** Genres that do not (-1 each). */
  shuns: string[];
  /** Keywords (as TMDB stores them, lower case) that fit. */
  keywords: string[];
  /** Runtime: films up to `upTo` minutes fit, longer than `over` do not. */
  runtime?: { upTo: number; over: number };
}

/** The five presets (the /tonight page's buttons). */
export const MOODS: Record<MoodKey, Mood> = {
  light: {
    label: "Something light",
    wants: ["Comedy", "Animation", "Family", "Romance", "Music", "Adventure"],
    shuns: ["Horror", "War", "Thriller", "Crime", "Documentary", "Drama"],
    keywords: ["feel-good", "friendship", "road trip", "buddy comedy", "romantic comedy"],
    runtime: { upTo: 120, over: 150 },
  },
  tense: {
    label: "Edge of my seat",
    wants: ["Thriller", "Action", "Crime", "Mystery", "Horror", "War"],
    shuns: ["Comedy", "Family", "Romance", "Animation", "Music", "Documentary"],
    keywords: ["suspense", "heist", "chase", "hostage", "survival", "manhunt", "serial killer"],
  },
  cry: {
    label: "A good cry",
    wants: ["Drama", "Romance", "War", "History", "Family"],
    shuns: ["Horror", "Action", "Thriller", "Comedy"],
    keywords: [
      "tragedy",
      "grief",
      "terminal illness",
      "loss",
      "tearjerker",
      "death of a loved one",
    ],
  },
  mindBending: {
    label: "Mind-bending",
    wants: ["Science Fiction", "Mystery", "Thriller", "Fantasy"],
    shuns: ["Family", "Romance", "Documentary", "TV Movie", "Music"],
    keywords: [
      "time travel",
      "dream",
      "alternate reality",
      "nonlinear timeline",
      "twist ending",
      "parallel world",
      "time loop",
      "artificial intelligence",
      "simulated reality",
    ],
  },
  short: {
    label: "Short and sweet",
    wants: ["Comedy", "Animation", "Romance", "Family"],
    shuns: [],
    keywords: [],
    runtime: { upTo: 100, over: 120 },
  },
};

/** The features of a film a mood reads. */
export interface MoodFeatures {
  genres: string[];
  keywords: string[];
  runtime: number;
}

/** How well a film fits one mood (-1..1) and, when it fits, why (only what matched). */
export function moodFit(
  key: MoodKey,
  film: MoodFeatures,
): { fit: number; reason: string | null } {
  const mood = MOODS[key];
  const wanted = film.genres.filter((g) => mood.wants.includes(g));
  const shunned = film.genres.filter((g) => mood.shuns.includes(g));
  const keywords = film.keywords.filter((k) => mood.keywords.includes(k.toLowerCase()));
  let fit = film.genres.length > 0 ? (wanted.length - shunned.length) / film.genres.length : 0;
  if (keywords.length > 0) fit += 0.5;
  let short = false;
  if (mood.runtime && film.runtime > 0) {
    if (film.runtime <= mood.runtime.upTo) {
      fit += 0.5;
      short = true;
    } else if (film.runtime > mood.runtime.over) fit -= 0.5;
  }
  fit = Math.max(-1, Math.min(1, fit));
  if (fit <= 0) return { fit, reason: null };
  const why = [
    ...wanted.slice(0, 2),
    ...keywords.slice(0, 1),
    ...(short ? [`${film.runtime} min`] : []),
  ];
  return { fit, reason: why.length ? `${mood.label}: ${why.join(", ")}` : null };
}
