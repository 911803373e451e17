/**
 * The response bodies of /api as zod schemas: what GET /api/openapi.json documents and what
 * tests/openapi_test.ts parses real responses with. The compile-time checks at the end keep them
 * equal to the TypeScript types the services return, so the two cannot drift apart.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "../catalog/catalog_id.ts";
import { providerIdSchema } from "../catalog/my_streaming/settings.ts";
import type { CatalogImportRun } from "../catalog/import/runs.ts";
import { historyComponents } from "./paths/history_schemas.ts";
import type { MovieCard } from "../catalog/cards.ts";
import type { WatchedEntry } from "../library/entries/entry.ts";
import type { MovieDetail, PopularPage, SearchRow } from "../catalog/types.ts";
import type { RecommendResult } from "../recommend/types.ts";
import type { QuotaStatus } from "../recommend/quota.ts";

/** A card of GET /api/watched and GET /api/mylist; a fallback card has empty display fields. */
export const movieCardSchema = z.strictObject({
  catalogId,
  title: z.string(),
  year: z.number().int().min(0),
  posterPath: z.string().meta({ description: "Path fragment of the poster image; may be empty." }),
  genres: z.array(z.string()),
  runtime: z.number().int().min(0).meta({ description: "Minutes; 0 when unknown." }),
  availability: z.array(z.strictObject({
    id: providerIdSchema.meta({ description: "TMDB provider id." }),
    name: z.string(),
    kind: z.enum(["flatrate", "free", "ads"]),
  })).optional().meta({
    description: "Only with include=availability: my providers streaming it in my region, " +
      "each once at its best kind (flatrate, free, ads); [] when none.",
  }),
});

// A paged read (limit or cursor given) adds these two; a whole-list read has neither.
const pageFields = {
  nextCursor: z.string().nullable().optional()
    .meta({ description: "Paged reads: the cursor of the next page; null on the last." }),
  total: z.number().int().min(0).optional()
    .meta({ description: "Paged reads: cards in the whole list as sorted and filtered." }),
};

/** The body of GET /api/watched and GET /api/mylist. */
export const movieListSchema = z.strictObject({
  success: z.literal(true),
  movies: z.array(movieCardSchema),
  ...pageFields,
});

/** A watched entry (docs/entries.md). */
const watchedEntrySchema = z.strictObject({
  catalogId,
  rating: z.number().int().min(1).max(10).nullable()
    .meta({ description: "1-10 (the website shows rating / 2 stars); null when unrated." }),
  watchedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable()
    .meta({
      format: "date",
      description: "When the user watched it (UTC date); null when unknown.",
    }),
  note: z.string().max(2000).nullable().meta({ description: "Private note; null when none." }),
  addedAt: z.iso.datetime().meta({ description: "When it was first added (ISO 8601, UTC)." }),
});

/** A card of GET /api/watched: with `include=entry`, the entry follows the six fields. */
const watchedCardSchema = movieCardSchema.extend({
  entry: watchedEntrySchema.optional().meta({ description: "Only with include=entry." }),
});

/** The body of GET /api/watched. */
export const watchedListSchema = z.strictObject({
  success: z.literal(true),
  movies: z.array(watchedCardSchema),
  ...pageFields,
});

/** GET and PATCH /api/watched/:catalogId. */
export const entryResultSchema = z.strictObject({
  success: z.literal(true),
  entry: watchedEntrySchema,
});

/** The body of a watched write (POST/DELETE /api/watched). */
export const watchedWriteSchema = z.strictObject({
  success: z.literal(true),
  watchedCount: z.null(),
});

/** The body of a My List write (POST/DELETE /api/mylist). */
export const myListWriteSchema = z.strictObject({
  success: z.literal(true),
  myListCount: z.null(),
});

/** GET /api/movies/:id. */
const movieDetailSchema = z.strictObject({
  id: catalogId,
  title: z.string(),
  poster: z.string().meta({ description: "Full w500 image URL, or empty without a poster." }),
  rating: z.number().meta({ description: "Average vote rounded to one decimal." }),
  year: z.number().int().min(0),
  duration: z.string().meta({ description: '"<h>h <m>m", or "N/A" when runtime is unknown.' }),
  runtime: z.number().int().min(0).nullable(),
  genres: z.array(z.string()),
  actors: z.array(z.string()).max(5),
  directors: z.array(z.string()),
  description: z.string(),
  trailer: z.string().nullable(),
});

/** A row of the search results and of the popular feed. */
const searchRowSchema = z.strictObject({
  id: catalogId,
  title: z.string(),
  original_title: z.string(),
  poster_path: z.string(),
  release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  vote_average: z.number(),
  genre_ids: z.array(z.number().int()),
});

/** GET /api/movies/search. */
const searchResultsSchema = z.strictObject({
  results: z.array(searchRowSchema),
  unlisted: z.array(z.strictObject({
    id: catalogId,
    title: z.string(),
    original_title: z.string(),
    poster_path: z.string().nullable(),
    release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
    vote_average: z.number().nullable(),
    genre_ids: z.array(z.number().int()),
  })).optional().meta({
    description: "Only with `include=unlisted`: the rows `results` leaves out (no poster, " +
      "release date or rating).",
  }),
});

/** GET /api/movies/popular. */
const popularPageSchema = z.strictObject({
  page: z.number().int().min(1),
  totalPages: z.number().int().min(0),
  results: z.array(searchRowSchema),
});

/** Why the last regeneration failed, in a stale recommendation answer. */
const regenerationErrorSchema = z.strictObject({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});

/** GET /api/recommend. */
const recommendResultSchema = z.strictObject({
  recommendations: z.array(catalogId),
  cached: z.boolean(),
  stale: z.boolean(),
  regenerationError: regenerationErrorSchema.nullable(),
  staleRecommendations: z.array(catalogId).nullable(),
  source: z.enum(["ai", "local"]).meta({
    description: 'Who chose the films: "ai" (from the local candidates), or "local": the ' +
      "local picks in place of a 503 when the server sets AI_FALLBACK=local (docs/recommend.md).",
  }),
});

/** GET /api/recommend/quota (QuotaStatus with resetAt as ISO 8601 text). */
export const quotaStatusSchema = z.strictObject({
  limit: z.number().int().min(0),
  used: z.number().int().min(0),
  remaining: z.number().int().min(0),
  resetAt: z.iso.datetime().meta({ description: "Next UTC midnight." }),
});

/** POST /api/auth/signup, 201. */
const signupResultSchema = z.strictObject({
  success: z.literal(true),
  user: z.strictObject({
    id: z.string(),
    email: z.string(),
    confirmationSentAt: z.iso.datetime().optional().meta({
      description: "Present when a link to confirm the address was mailed (SMTP set; GoTrue's " +
        "`confirmation_sent_at`): the account works meanwhile, the link proves the address.",
    }),
  }),
});

/** POST /api/admin/catalog-import, 202. */
const importStartedSchema = z.strictObject({
  success: z.literal(true),
  importId: z.string(),
  status: z.literal("running"),
});

/** One run of GET /api/admin/catalog-import. */
const importRunSchema = z.strictObject({
  id: z.string(),
  trigger: z.enum(["manual", "cron"]),
  status: z.enum(["running", "succeeded", "failed"]),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  pages: z.number().int(),
  moviesSeen: z.number().int(),
  moviesUpserted: z.number().int(),
  detailsFetched: z.number().int(),
  errors: z.number().int(),
  lastError: z.string().nullable(),
});

/** GET /api/admin/catalog-import. */
const importRunsSchema = z.strictObject({
  runs: z.array(importRunSchema),
});

/** GET /api/health. */
const healthSchema = z.strictObject({ status: z.literal("ok") });

/** GET /api/health?deep=1 (docs/faults.md). */
const healthReportSchema = z.strictObject({
  status: z.enum(["ok", "unavailable"]),
  store: z.strictObject({ ok: z.boolean(), migration: z.string().nullable() }),
  kv: z.strictObject({ ok: z.boolean() }),
  window: z.strictObject({ used: z.number().int(), resetAt: z.string() }).nullable(),
  version: z.string(),
});

/** Every error: RFC 9457 problem details with a stable code (docs/api.md). */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  code: z.string().regex(/^[a-z][a-z0-9_]*$/),
  requestId: z.string().optional(),
});

/** The named response schemas, as the document's components/schemas lists them. */
export const responseComponents = {
  MovieCard: movieCardSchema,
  MovieList: movieListSchema,
  WatchedEntry: watchedEntrySchema,
  WatchedCard: watchedCardSchema,
  WatchedList: watchedListSchema,
  EntryResult: entryResultSchema,
  WatchedWrite: watchedWriteSchema,
  MyListWrite: myListWriteSchema,
  MovieDetail: movieDetailSchema,
  SearchRow: searchRowSchema,
  SearchResults: searchResultsSchema,
  PopularPage: popularPageSchema,
  RegenerationError: regenerationErrorSchema,
  RecommendResult: recommendResultSchema,
  QuotaStatus: quotaStatusSchema,
  SignupResult: signupResultSchema,
  ImportStarted: importStartedSchema,
  ImportRun: importRunSchema,
  ImportRuns: importRunsSchema,
  Health: healthSchema,
  HealthReport: healthReportSchema,
  ...historyComponents,
  Problem: problemSchema,
} as const;

/** The name of a response component. */
export type ComponentName = keyof typeof responseComponents;

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<S extends z.ZodType> = z.output<S>;
const _card: Same<Out<typeof movieCardSchema>, MovieCard> = true;
const _entry: Same<Out<typeof watchedEntrySchema>, WatchedEntry> = true;
const _detail: Same<Out<typeof movieDetailSchema>, MovieDetail> = true;
const _row: Same<Out<typeof searchRowSchema>, SearchRow> = true;
const _popular: Same<Out<typeof popularPageSchema>, PopularPage> = true;
const _recommend: Same<Out<typeof recommendResultSchema>, RecommendResult> = true;
const _quota: Same<
  Out<typeof quotaStatusSchema>,
  Omit<QuotaStatus, "resetAt"> & { resetAt: string }
> = true;
const _run: Same<Out<typeof importRunSchema>, CatalogImportRun> = true;
