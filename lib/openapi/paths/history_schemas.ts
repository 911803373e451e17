/**
 * The response bodies of the history import and export routes (docs/history.md), kept
 * equal to the types the services return by the compile-time checks at the end.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import type { HistoryExport } from "@/lib/library/history/export/export_file.ts";
import type { HistoryImportRun } from "@/lib/library/history/import/runs.ts";

const count = z.number().int().min(0);

/** POST /api/import, 202. */
const historyImportStartedSchema = z.strictObject({
  importId: z.string(),
  status: z.literal("running"),
});

/** A row of a run's report that matched no movie. */
const unmatchedRowSchema = z.strictObject({
  title: z.string(),
  year: z.number().int().nullable(),
  reason: z.enum(["not_found", "ambiguous", "invalid_row"]).meta({
    description: "`invalid_row`: the row's title is over 500 characters, so it is no title.",
  }),
});

/** GET /api/import/:id: a run with its counts, progress and unmatched report. */
const historyImportSchema = z.strictObject({
  id: z.string(),
  status: z.enum(["running", "succeeded", "failed", "cancelled"]),
  format: z.enum(["letterboxd", "trakt", "imdb", "service"]).meta({
    description: "`service` is this service's own JSON export; its CSV reads as `letterboxd`.",
  }),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  progress: z.number().min(0).max(1),
  counts: z.strictObject({
    rows: count,
    matched: count,
    added: count,
    updated: count,
    skipped: count,
    unmatched: count,
    listFull: count.optional().meta({
      description:
        "Of skipped, present when any: rows past the watched list's (100,000) or My List's (10,000) limit.",
    }),
    tooManyViewings: count.optional().meta({
      description:
        "Present when any: viewings (diary entries, plays) not logged in the diary, past a film's " +
        "(1,000) or the diary's (200,000) cap; their films are imported. Not in skipped.",
    }),
  }).meta({ description: "In rows of the file (a film named by three rows counts three)." }),
  films: z.strictObject({ total: count, matched: count, unmatched: count }).meta({
    description: "In films: each movie of the file once, however many rows name it.",
  }),
  unmatched: z.array(unmatchedRowSchema).max(100).meta({
    description: "The first 100 unmatched films; all of them at /api/import/{id}/unmatched.",
  }),
});

/** GET /api/import. */
const historyImportsSchema = z.strictObject({
  imports: z.array(historyImportSchema),
});

/** GET /api/export (JSON). */
export const historyExportSchema = z.strictObject({
  exportedAt: z.iso.datetime(),
  watched: z.array(z.strictObject({
    catalogId,
    title: z.string().meta({ description: "Empty when the movie is not in the store." }),
    year: z.number().int().min(0).meta({ description: "0 when unknown." }),
    rating: z.number().int().min(1).max(10).nullable(),
    watchedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
    note: z.string().max(2000).nullable(),
    addedAt: z.iso.datetime(),
  })),
  myList: z.array(z.strictObject({
    catalogId,
    title: z.string(),
    year: z.number().int().min(0),
  })),
  diary: z.array(z.strictObject({
    catalogId,
    title: z.string(),
    year: z.number().int().min(0),
    watchedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    rating: z.number().int().min(1).max(10).nullable(),
    rewatch: z.boolean(),
    note: z.string().max(2000).nullable(),
  })).meta({ description: "Every viewing, newest first." }),
  lists: z.array(z.strictObject({
    name: z.string(),
    description: z.string(),
    visibility: z.enum(["private", "unlisted", "public"]),
    ranked: z.boolean(),
    items: z.array(z.strictObject({
      catalogId,
      title: z.string(),
      year: z.number().int().min(0),
      position: z.number().int().min(1),
      note: z.string().nullable(),
    })),
  })).meta({ description: "The user's own lists, items in position order." }),
});

/** The components these routes add to the document. */
export const historyComponents = {
  HistoryImportStarted: historyImportStartedSchema,
  UnmatchedRow: unmatchedRowSchema,
  HistoryImport: historyImportSchema,
  HistoryImports: historyImportsSchema,
  HistoryExport: historyExportSchema,
} as const;

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _run: Same<z.output<typeof historyImportSchema>, HistoryImportRun> = true;
const _export: Same<z.output<typeof historyExportSchema>, HistoryExport> = true;
