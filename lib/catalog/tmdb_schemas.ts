/**
 * The shapes the service expects from TMDB (taken from tests/fixtures/tmdb). A 2xx body that
 * does not match is a 502 `upstream_bad_response`. Fields TMDB sends as null or leaves out on
 * some movies (poster_path, release_date, runtime, overview) are optional here; unknown keys
 * are ignored.
 */
import { z } from "zod";

const text = z.string().nullish().transform((v) => v ?? "");

/** A row of /search/movie and /movie/popular. */
export const tmdbListRow = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  original_title: text,
  poster_path: text,
  release_date: text,
  vote_average: z.number().nullish().transform((v) => v ?? 0),
  vote_count: z.number().nullish().transform((v) => v ?? 0),
  popularity: z.number().nullish().transform((v) => v ?? 0),
  genre_ids: z.array(z.number().int()).nullish().transform((v) => v ?? []),
  overview: text,
  original_language: z.string().nullish().catch(null),
});

/** The body of /search/movie and /movie/popular. */
export const tmdbList = z.object({
  page: z.number().int(),
  total_pages: z.number().int().nonnegative(),
  results: z.array(tmdbListRow),
});

const castMember = z.object({ name: z.string(), order: z.number().nullish() });
const crewMember = z.object({ name: z.string(), job: z.string().nullish() });
const video = z.object({
  key: z.string(),
  site: z.string().nullish(),
  type: z.string().nullish(),
  official: z.boolean().nullish(),
  published_at: z.string().nullish(),
});

/** The body of /movie/{id} with the detail's appends (tmdb_client.ts DETAIL_APPENDS). */
export const tmdbMovie = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  original_title: text,
  poster_path: text,
  release_date: text,
  runtime: z.number().int().nonnegative().nullish().transform((v) => v ?? null),
  genres: z.array(z.object({ id: z.number().int(), name: z.string() })).nullish()
    .transform((v) => v ?? []),
  overview: text,
  vote_average: z.number().nullish().transform((v) => v ?? 0),
  vote_count: z.number().nullish().transform((v) => v ?? 0),
  popularity: z.number().nullish().transform((v) => v ?? 0),
  credits: z.object({ cast: z.array(castMember), crew: z.array(crewMember) }),
  videos: z.object({ results: z.array(video) }),
  // Kept as TMDB sends it (per region) and read leniently (lib/catalog/providers.ts).
  "watch/providers": z.object({ results: z.record(z.string(), z.unknown()) }).nullish(),
  // Read leniently entry by entry (lib/catalog/release_dates.ts): one odd date must not cost
  // the film its details; absent when the call did not append them.
  release_dates: z.object({ results: z.array(z.unknown()) }).nullish().catch(null),
  keywords: z.object({ keywords: z.array(z.unknown()) }).nullish().catch(null),
  external_ids: z.object({ imdb_id: z.string().nullish() }).nullish().catch(null),
  // The local recommender's features (docs/recommend.md, "Local picks"); read leniently.
  original_language: z.string().nullish().catch(null),
  belongs_to_collection: z.object({ id: z.number().int().positive(), name: z.string().nullish() })
    .nullish().catch(null),
});

/** A parsed list row. */
export type TmdbListRow = z.infer<typeof tmdbListRow>;
/** A parsed list body. */
export type TmdbList = z.infer<typeof tmdbList>;
/** A parsed detail body. */
export type TmdbMovie = z.infer<typeof tmdbMovie>;
/** A parsed video of a detail body. */
export type TmdbVideo = z.infer<typeof video>;
/** A parsed cast member. */
export type TmdbCast = z.infer<typeof castMember>;
/** A parsed crew member. */
export type TmdbCrew = z.infer<typeof crewMember>;
