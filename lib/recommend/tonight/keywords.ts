/**
 * Tonight's words read without an AI (docs/recommend.md, "Tonight"): when no provider is
 * configured (or the one asked failed), a plain reading of the words people type most: genre
 * names ("no horror" excludes), the five moods by their usual words, a runtime ("under 2
 * hours", "90 minutes or less"), decades and years ("80s", "after 2010"), language adjectives
 * ("a French film"), "stream" and "my list", and "something like <title>". What it cannot read
 * it leaves out; it never guesses.
 */
import { MOVIE_GENRES } from "../../catalog/genres.ts";
import { type AiReading, RUNTIME_MAX, YEARS } from "./interpretation.ts";
import type { MoodKey } from "./moods.ts";

const MOOD_WORDS: Record<MoodKey, RegExp> = {
  light: /\b(light|fun|funny|laugh\w*|cheer\w*|feel[- ]?good|easy|silly|upbeat|comfort\w*)\b/,
  tense: /\b(tense|thrill\w*|edge of my seat|suspense\w*|gripping|intense|nail[- ]?biting)\b/,
  cry: /\b(cry|crying|sad|tears?|tearjerker|weep\w*|emotional|moving|heartbreaking)\b/,
  mindBending: /\b(mind[- ]?bending|mind[- ]?blowing|twists?|trippy|puzzl\w*|cerebral|surreal)\b/,
  short: /\b(short|quick|brief)\b/,
};

const GENRE_WORDS: [RegExp, string][] = [
  ...[...MOVIE_GENRES.values()].map((name): [RegExp, string] => [
    new RegExp(`\\b${name.toLowerCase().replace(" ", "[- ]?")}\\b`),
    name,
  ]),
  [/\b(sci[- ]?fi|scifi)\b/, "Science Fiction"],
  [/\b(comedies|comedic)\b/, "Comedy"],
  [/\b(documentaries)\b/, "Documentary"],
  [/\b(animated|cartoons?)\b/, "Animation"],
  [/\b(romantic|love story)\b/, "Romance"],
  [/\b(scary)\b/, "Horror"],
  [/\b(musicals?)\b/, "Music"],
  [/\b(westerns)\b/, "Western"],
  [/\b(thrillers)\b/, "Thriller"],
  [/\b(dramas)\b/, "Drama"],
];
const NEGATION = /\b(no|not|without|nothing|never|avoid|except|but not)\s+(\w+\s+){0,2}$/;

// Every two-letter code the language names know, by its English adjective-like name.
const LANGUAGES = (() => {
  const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });
  const byName = new Map<string, string>();
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      const name = names.of(code);
      if (name && name !== code && /^[A-Za-z]+$/.test(name)) byName.set(name.toLowerCase(), code);
    }
  }
  // Adjectives the names do not spell that way; a name that is also an English word is not one.
  for (const [word, code] of [["mandarin", "zh"], ["cantonese", "zh"], ["farsi", "fa"]]) {
    byName.set(word, code);
  }
  for (const word of ["afar", "ido", "ewe", "twi", "nauru", "tonga"]) byName.delete(word);
  return byName;
})();

function runtimeOf(text: string): number | null {
  const m =
    /\b(?:under|less than|at most|max(?:imum)?|no (?:more|longer) than|shorter than|within|below)\s+(?:an?\s+)?(\d+(?:\.\d+)?|an?|half an?)?\s*(hours?|hrs?|h|minutes?|mins?|m)\b/
      .exec(text) ?? /\b(\d+)\s*(minutes?|mins?)\s+or\s+(?:less|shorter)\b/.exec(text);
  if (!m) return null;
  const amount = m[1] === undefined || /^an?$/.test(m[1])
    ? 1
    : /^half/.test(m[1])
    ? 0.5
    : Number(m[1]);
  const minutes = Math.round(/^h/.test(m[2]) ? amount * 60 : amount);
  return minutes >= RUNTIME_MAX.min && minutes <= RUNTIME_MAX.max ? minutes : null;
}

function yearsOf(text: string): { yearFrom: number | null; yearTo: number | null } {
  const inRange = (y: number) => (y >= YEARS.min && y <= YEARS.max ? y : null);
  const decade = /\b(?:(1[89]|2[01])?(\d)0)'?s\b/.exec(text);
  if (decade) {
    const century = decade[1] ? Number(decade[1]) * 100 : Number(decade[2]) >= 3 ? 1900 : 2000;
    const from = inRange(century + Number(decade[2]) * 10);
    return { yearFrom: from, yearTo: from === null ? null : from + 9 };
  }
  const after = /\b(?:after|since|from|newer than)\s+(\d{4})\b/.exec(text);
  const before = /\b(?:before|until|older than|up to)\s+(\d{4})\b/.exec(text);
  return {
    yearFrom: after ? inRange(Number(after[1]) + (/after|newer/.test(after[0]) ? 1 : 0)) : null,
    yearTo: before ? inRange(Number(before[1]) - (/before|older/.test(before[0]) ? 1 : 0)) : null,
  };
}

/** The plain reading of `text`; `similarTo` holds at most one title, still to be resolved. */
export function readWords(text: string): AiReading {
  const lower = text.toLowerCase().replace(/[’‘]/g, "'");
  const genres: string[] = [];
  const excludeGenres: string[] = [];
  for (const [pattern, name] of GENRE_WORDS) {
    const m = pattern.exec(lower);
    if (!m) continue;
    const negated = NEGATION.test(lower.slice(0, m.index));
    const into = negated ? excludeGenres : genres;
    if (!into.includes(name)) into.push(name);
  }
  const moods = (Object.keys(MOOD_WORDS) as MoodKey[]).filter((k) => MOOD_WORDS[k].test(lower));
  const languages = [
    ...new Set(lower.split(/[^a-z]+/).flatMap((w) => LANGUAGES.get(w) ?? [])),
  ].filter((code) => code !== "en" || /\benglish\b/.test(lower));
  const like =
    /\b(?:something like|similar to|in the vein of|(?:movies?|films?) like)\s+["“']?(.+?)["”']?\s*(?:[,.;!?]|$|\s(?:but|and|with|from)\s)/i
      .exec(text);
  const runtimeMax = runtimeOf(lower);
  return {
    genres: genres.filter((g) => !excludeGenres.includes(g)),
    excludeGenres,
    // "Short" said with a runtime is the runtime; alone, the mood.
    moods: runtimeMax !== null ? moods.filter((m) => m !== "short") : moods,
    runtimeMax,
    ...yearsOf(lower),
    languages: languages.slice(0, 5),
    onlyMine: /\b(stream\w*|my services|on (?:netflix|prime|disney|hulu|max))\b/.test(lower),
    fromMyList: /\b(my list|my watchlist|watch ?list|saved)\b/.test(lower),
    similarTo: like ? [{ title: like[1].trim().slice(0, 300), year: null }] : [],
  };
}
