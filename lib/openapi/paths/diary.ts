/**
 * The document's diary routes (docs/diary.md): /api/diary, /api/diary/{id}, /api/diary/unrated
 * and /api/stats. Their response schemas sit here, typed against the diary service's shapes, so
 * neither can drift from the other.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import {
  diaryPatchSchema,
  diaryPostSchema,
  diaryQuerySchema,
} from "@/lib/library/diary/payload.ts";
import type { DiaryEntry, UnratedMovie, YearStats } from "@/lib/library/diary/mod.ts";
import { statsQuerySchema, unratedQuerySchema } from "@/lib/library/diary/stats_query.ts";
import { jsonSchemaOf, queryParameters } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ format: "date" });
const count = z.number().int().min(0);

/** One viewing of GET /api/diary. */
const diaryEntrySchema = z.strictObject({
  id: z.string().meta({ format: "uuid" }),
  catalogId,
  title: z.string().meta({ description: "Empty until the movie's details are stored." }),
  year: z.number().int(),
  posterPath: z.string(),
  watchedOn: date,
  rating: z.number().int().min(1).max(10).nullable(),
  rewatch: z.boolean().meta({
    description: "The movie has a viewing before this one (an earlier date, or the same date " +
      "logged earlier); an imported viewing also keeps the file's own mark.",
  }),
  note: z.string().nullable(),
  source: z.enum(["manual", "import", "webhook", "scrobble", "checkin"]),
});

const diaryPageSchema = z.strictObject({
  entries: z.array(diaryEntrySchema).meta({ description: "Newest first." }),
  nextCursor: z.string().nullable().meta({
    description: "The next page's cursor; null at the end.",
  }),
});

const diaryEntryAnswerSchema = z.strictObject({ entry: diaryEntrySchema });

const unratedMovieSchema = z.strictObject({
  catalogId,
  title: z.string(),
  year: z.number().int(),
  posterPath: z.string(),
  watchedOn: date.nullable(),
  viewingId: z.string().nullable().meta({
    description: "The latest viewing, which a rating from the queue goes to (PATCH " +
      "/api/diary/{id}); null when none is logged (then PATCH /api/watched/{catalogId}).",
  }),
});

const unratedSchema = z.strictObject({ movies: z.array(unratedMovieSchema) });

const named = z.array(z.strictObject({ name: z.string(), count: count })).max(10);
const mark = z.strictObject({ catalogId, watchedOn: date }).nullable();

/** GET /api/stats. */
export const yearStatsSchema = z.strictObject({
  year: z.number().int().nullable().meta({ description: "null: all time." }),
  // One definition per figure, as every page shows it (docs/diary.md, "The figures, one
  // definition each").
  films: count.meta({ description: "Distinct films counted in the period." }),
  viewings: count.meta({
    description: "The period's viewings, plus a watched film without any viewing once at its date.",
  }),
  rewatches: count.meta({
    description: "Viewings of a film seen before, also before the period (the diary's rewatch " +
      "mark), so it can exceed viewings minus films, which counts only repeats within the period.",
  }),
  incomplete: count.meta({
    description: "Films of the period still without details (being fetched): hours, directors, " +
      "actors and genres leave them out until then.",
  }),
  hours: z.number().min(0).meta({ description: "Of the viewings with a known runtime, to 0.1." }),
  ratings: z.strictObject({
    count: count.meta({ description: "Rated viewings, each at its own rating." }),
    average: z.number().nullable().meta({
      description: "Mean of the rated viewings, 1-10, to two decimals; null when none is rated.",
    }),
    histogram: z.record(z.enum(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]), count).meta({
      description: "Rated viewings by rating; adds up to count.",
    }),
  }),
  byMonth: z.array(count).length(12).nullable().meta({
    description: "Viewings per month, January first; null for all time.",
  }),
  genres: named,
  directors: named,
  actors: named,
  decades: z.array(z.strictObject({ decade: z.number().int(), count })),
  topRated: z.array(catalogId).max(10),
  firstWatch: mark,
  lastWatch: mark,
});

/** The component schemas this file adds. */
export const diaryComponents = {
  DiaryPage: diaryPageSchema,
  DiaryEntryAnswer: diaryEntryAnswerSchema,
  UnratedQueue: unratedSchema,
  YearStats: yearStatsSchema,
} as const;

function ok(description: string, name: keyof typeof diaryComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];
const tags = ["lists"];
const codes = "`invalid_body`, `invalid_catalog_id`, `invalid_date`, `invalid_rating`, " +
  "`invalid_note`";
const body = (schema: z.ZodType, description: string) => ({
  required: true,
  description,
  content: { "application/json": { schema: jsonSchemaOf(schema, "input") } },
});
const idParameter = {
  name: "id",
  in: "path",
  required: true,
  schema: { type: "string" },
  description: "A diary entry's id.",
};

/** The paths this file adds. */
export function diaryPaths(): Record<string, unknown> {
  return {
    "/api/diary": {
      get: {
        summary: "The user's viewings, newest first, a page at a time.",
        tags,
        security: bearer,
        parameters: queryParameters(diaryQuerySchema),
        responses: {
          200: ok("A page.", "DiaryPage"),
          400: problem("A bad year, month, limit or cursor (`invalid_query`)."),
          401: unauthorized,
          500: internal,
        },
      },
      post: {
        summary: "Logs a viewing: the movie becomes watched (and leaves My List).",
        tags,
        security: bearer,
        requestBody: body(diaryPostSchema, "watchedOn defaults to today (UTC); at most 16 KiB."),
        responses: {
          200: ok(
            "The movie already had a viewing that day: that one, updated.",
            "DiaryEntryAnswer",
          ),
          201: ok("Logged.", "DiaryEntryAnswer"),
          400: problem(
            `A bad body (${codes}), or the movie is not watched yet and the watched list ` +
              "already holds 100,000 films (`list_full`), or a new viewing past the diary's " +
              "caps: 1,000 viewings of one film, 200,000 in all (`too_many_viewings`).",
          ),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/diary/{id}": {
      get: {
        summary: "One viewing, its note whole (the /diary page shows the first 200 characters).",
        tags,
        security: bearer,
        parameters: [idParameter],
        responses: {
          200: ok("The entry.", "DiaryEntryAnswer"),
          401: unauthorized,
          404: problem("No such entry of this user's (`not_found`)."),
          500: internal,
        },
      },
      patch: {
        summary: "Changes a viewing's date, rating or note.",
        tags,
        security: bearer,
        parameters: [idParameter],
        requestBody: body(diaryPatchSchema, "At least one field; null clears rating or note."),
        responses: {
          200: ok("The entry.", "DiaryEntryAnswer"),
          400: problem(`A bad body (${codes}).`),
          401: unauthorized,
          404: problem("No such entry of this user's (`not_found`)."),
          409: problem("The movie has a viewing of that date already (`already_logged`)."),
          500: internal,
        },
      },
      delete: {
        summary: "Removes a viewing; the movie stays watched.",
        tags,
        security: bearer,
        parameters: [idParameter],
        responses: {
          204: { description: "Removed." },
          401: unauthorized,
          404: problem("No such entry of this user's (`not_found`)."),
          500: internal,
        },
      },
    },
    "/api/diary/unrated": {
      get: {
        summary: "The queue of what to rate: watched movies without a rating, newest watch first.",
        tags,
        security: bearer,
        parameters: queryParameters(unratedQuerySchema),
        responses: {
          200: ok("The queue.", "UnratedQueue"),
          400: problem("A bad limit (`invalid_query`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/stats": {
      get: {
        summary: "A year of watching (or all of it) in numbers: the year in review.",
        tags,
        security: bearer,
        parameters: queryParameters(statsQuerySchema),
        responses: {
          200: ok("The numbers.", "YearStats"),
          400: problem("A bad year (`invalid_query`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
  };
}

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _entry: Same<z.output<typeof diaryEntrySchema>, DiaryEntry> = true;
const _unrated: Same<z.output<typeof unratedMovieSchema>, UnratedMovie> = true;
const _stats: Same<z.output<typeof yearStatsSchema>, YearStats> = true;
