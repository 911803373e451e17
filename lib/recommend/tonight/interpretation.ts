/**
 * Tonight's interpretation (docs/recommend.md, "Tonight"): what the words or the chips ask for,
 * its two readers and one cleaner. `filters` from a client must have exactly its keys and types
 * and in-range numbers (else 400 `invalid_query`); the AI's answer is cleaned instead: unknown
 * genres, moods and languages dropped, numbers out of range left out, so a model's slip never
 * costs the user an answer.
 */
import { z } from "zod";
import { MOVIE_GENRES } from "../../catalog/genres.ts";
import { catalogIdSchema } from "../../catalog/catalog_id.ts";
import { MOOD_KEYS, type MoodKey } from "./moods.ts";

/** A film the user wants something like, resolved to a stored film. */
export interface SimilarFilm {
  catalogId: number;
  title: string;
}

/** What tonight's film should be: hard filters, moods (soft) and films to resemble. */
export interface Interpretation {
  genres: string[];
  excludeGenres: string[];
  moods: MoodKey[];
  runtimeMax: number | null;
  yearFrom: number | null;
  yearTo: number | null;
  languages: string[];
  onlyMine: boolean;
  fromMyList: boolean;
  similarTo: SimilarFilm[];
}

/** Bounds of the numbers. */
export const RUNTIME_MAX = { min: 1, max: 1440 } as const;
export const YEARS = { min: 1800, max: 2200 } as const;
/** The most entries a list of the interpretation keeps. */
const LIST_MAX = 20;
/** Films to resemble, at most. */
const SIMILAR_MAX = 3;

/** Nothing asked: every stored film the user has not seen, ranked by their taste. */
export function emptyInterpretation(): Interpretation {
  return {
    genres: [],
    excludeGenres: [],
    moods: [],
    runtimeMax: null,
    yearFrom: null,
    yearTo: null,
    languages: [],
    onlyMine: false,
    fromMyList: false,
    similarTo: [],
  };
}

const GENRE_KEY = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "");
const GENRES_BY_KEY = new Map<string, string>([
  ...[...MOVIE_GENRES.values()].map((name) => [GENRE_KEY(name), name] as [string, string]),
  ["scifi", "Science Fiction"],
  ["sf", "Science Fiction"],
  ["tvmovie", "TV Movie"],
  ["musical", "Music"],
  ["documentaries", "Documentary"],
]);

/** The catalog's name of `name` (case, spaces and dashes ignored; "sci-fi" too), else null. */
function knownGenre(name: string): string | null {
  return GENRES_BY_KEY.get(GENRE_KEY(name)) ?? null;
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });

/** Whether `code` is an ISO 639-1 code (two letters the language names know). */
function isLanguage(code: string): boolean {
  return /^[a-z]{2}$/.test(code) && languageNames.of(code) !== code;
}

const unique = <T>(values: T[]) => [...new Set(values)].slice(0, LIST_MAX);

// The client's filters: the interpretation's keys and types, each optional; anything else 400.
const filtersSchema = z.strictObject({
  genres: z.array(z.string().max(40)).max(LIST_MAX).optional(),
  excludeGenres: z.array(z.string().max(40)).max(LIST_MAX).optional(),
  moods: z.array(z.enum(MOOD_KEYS)).max(MOOD_KEYS.length).optional(),
  runtimeMax: z.number().int().min(RUNTIME_MAX.min).max(RUNTIME_MAX.max).nullable().optional(),
  yearFrom: z.number().int().min(YEARS.min).max(YEARS.max).nullable().optional(),
  yearTo: z.number().int().min(YEARS.min).max(YEARS.max).nullable().optional(),
  languages: z.array(z.string().regex(/^[a-z]{2}$/)).max(LIST_MAX).optional(),
  onlyMine: z.boolean().optional(),
  fromMyList: z.boolean().optional(),
  similarTo: z.array(
    z.union([
      catalogIdSchema,
      z.strictObject({ catalogId: catalogIdSchema, title: z.string().max(300).optional() }),
    ]),
  ).max(SIMILAR_MAX).optional(),
});

/** POST /api/tonight's body. */
export const tonightBodySchema = z.strictObject({
  text: z.string().max(300).optional(),
  filters: filtersSchema.optional(),
});

/** The parsed body of POST /api/tonight. */
export type TonightBody = z.output<typeof tonightBodySchema>;

/** What a client's filters ask, with similarTo as ids still to be checked against the store. */
export interface AskedFilters extends Omit<Interpretation, "similarTo"> {
  similarIds: number[];
}

/** A client's valid filters as the interpretation (genres named as the catalog names them). */
export function fromFilters(filters: NonNullable<TonightBody["filters"]>): AskedFilters {
  const base = emptyInterpretation();
  const genres = (list?: string[]) =>
    unique((list ?? []).map(knownGenre).filter((g): g is string => g !== null));
  return {
    genres: genres(filters.genres),
    excludeGenres: genres(filters.excludeGenres),
    moods: unique(filters.moods ?? []),
    runtimeMax: filters.runtimeMax ?? base.runtimeMax,
    yearFrom: filters.yearFrom ?? null,
    yearTo: filters.yearTo ?? null,
    languages: unique((filters.languages ?? []).filter(isLanguage)),
    onlyMine: filters.onlyMine ?? false,
    fromMyList: filters.fromMyList ?? false,
    similarIds: unique(
      (filters.similarTo ?? []).map((s) => (typeof s === "number" ? s : s.catalogId)),
    ),
  };
}

/** The interpretation as the AI should answer it (strict JSON schema: every key required). */
export const INTERPRETATION_JSON_SCHEMA = {
  type: "object",
  properties: {
    genres: { type: "array", items: { type: "string" } },
    excludeGenres: { type: "array", items: { type: "string" } },
    moods: { type: "array", items: { type: "string", enum: [...MOOD_KEYS] } },
    runtimeMax: { type: ["integer", "null"] },
    yearFrom: { type: ["integer", "null"] },
    yearTo: { type: ["integer", "null"] },
    languages: { type: "array", items: { type: "string" } },
    onlyMine: { type: "boolean" },
    fromMyList: { type: "boolean" },
    similarTo: {
      type: "array",
      items: {
        type: "object",
        properties: { title: { type: "string" }, year: { type: ["integer", "null"] } },
        required: ["title", "year"],
        additionalProperties: false,
      },
    },
  },
  required: [
    "genres",
    "excludeGenres",
    "moods",
    "runtimeMax",
    "yearFrom",
    "yearTo",
    "languages",
    "onlyMine",
    "fromMyList",
    "similarTo",
  ],
  additionalProperties: false,
} as const;

/** What the AI named as films to resemble, still to be found in the store. */
export interface NamedFilm {
  title: string;
  year: number | null;
}

/** The AI's interpretation, cleaned; `similarTo` as titles still to be resolved. */
export interface AiReading extends Omit<Interpretation, "similarTo"> {
  similarTo: NamedFilm[];
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const strings = (value: unknown) =>
  list(value).filter((v): v is string => typeof v === "string").map((v) => v.trim());
const intIn = (value: unknown, bounds: { min: number; max: number }): number | null => {
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= bounds.min && n <= bounds.max
    ? n
    : null;
};

/**
 * Cleans the AI's answer, the interpretation itself or wrapped as `{"interpretation":{...}}`:
 * unknown genres, moods and languages are dropped, numbers outside their bounds become null,
 * anything not a boolean is false; null when the answer is not an object or has none of the
 * interpretation's keys.
 */
export function cleanAiReading(raw: unknown): AiReading | null {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const outer = raw as Record<string, unknown>;
  const inner = outer.interpretation;
  const o = inner && typeof inner === "object" && !Array.isArray(inner)
    ? inner as Record<string, unknown>
    : outer;
  // An object with none of the keys is some other answer (a list of films), not a reading.
  if (!INTERPRETATION_JSON_SCHEMA.required.some((key) => key in o)) return null;
  const genres = (value: unknown) =>
    unique(strings(value).map(knownGenre).filter((g): g is string => g !== null));
  const moods = unique(
    strings(o.moods).filter((m): m is MoodKey => (MOOD_KEYS as readonly string[]).includes(m)),
  );
  let yearFrom = intIn(o.yearFrom, YEARS);
  let yearTo = intIn(o.yearTo, YEARS);
  // "Between 2010 and 1990" is still a range.
  if (yearFrom !== null && yearTo !== null && yearFrom > yearTo) {
    [yearFrom, yearTo] = [yearTo, yearFrom];
  }
  return {
    genres: genres(o.genres),
    excludeGenres: genres(o.excludeGenres),
    moods,
    runtimeMax: intIn(o.runtimeMax, RUNTIME_MAX),
    yearFrom,
    yearTo,
    languages: unique(strings(o.languages).map((l) => l.toLowerCase()).filter(isLanguage)),
    onlyMine: o.onlyMine === true,
    fromMyList: o.fromMyList === true,
    similarTo: list(o.similarTo).flatMap((s): NamedFilm[] => {
      if (typeof s === "string" && s.trim()) return [{ title: s.trim().slice(0, 300), year: null }];
      if (!s || typeof s !== "object") return [];
      const film = s as Record<string, unknown>;
      if (typeof film.title !== "string" || !film.title.trim()) return [];
      return [{ title: film.title.trim().slice(0, 300), year: intIn(film.year, YEARS) }];
    }).slice(0, SIMILAR_MAX),
  };
}
