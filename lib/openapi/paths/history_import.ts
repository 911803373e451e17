/**
 * The document's parts for the history import's report and cancel (issue 24): the unmatched
 * films a page at a time or as a CSV download, and cancelling a run. Their response schema
 * sits here, typed against the service's own shape.
 */
import { z } from "zod";
import type { UnmatchedPage } from "@/lib/library/history/import/unmatched.ts";
import { unmatchedQuerySchema } from "@/lib/library/history/import/unmatched_query.ts";
import { queryParameters } from "../json_schema.ts";
import { internal, ok, problem, unauthorized } from "../responses.ts";

/** GET /api/import/:id/unmatched. */
const unmatchedPageSchema = z.strictObject({
  unmatched: z.array(z.strictObject({
    title: z.string(),
    year: z.number().int().nullable(),
    reason: z.enum(["not_found", "ambiguous", "invalid_row"]),
    rows: z.number().int().min(1).meta({ description: "Rows of the file naming this film." }),
  })).max(100),
  nextCursor: z.string().nullable().meta({
    description: "Pass as `cursor` for the next page; null on the last one.",
  }),
});

/** The components these routes add. */
export const historyImportComponents = { UnmatchedPage: unmatchedPageSchema } as const;

const tags = ["history"];
const bearer = [{ bearerAuth: [] }];
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
const notFound = problem("No such run of this user's (`not_found`); others' runs are 404 too.");

/** The paths of /api/import/{id}/unmatched and /api/import/{id}/cancel. */
export function historyImportPaths(): Record<string, unknown> {
  return {
    "/api/import/{id}/unmatched": {
      get: {
        summary: "A run's unmatched films, 100 a page in file order, or all of them as CSV.",
        tags,
        security: bearer,
        parameters: [id, ...queryParameters(unmatchedQuerySchema)],
        responses: {
          200: {
            description: "A page; with format=csv, every unmatched film as a download " +
              "(Title,Year,Reason,Rows,Search; Search links to the site's search).",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/UnmatchedPage" } },
              "text/csv": { schema: { type: "string" } },
            },
          },
          400: problem(
            "A malformed cursor, an unknown parameter, or csv with a cursor " +
              "(`invalid_query`).",
          ),
          401: unauthorized,
          404: notFound,
          500: internal,
        },
      },
    },
    "/api/import/{id}/cancel": {
      post: {
        summary: "Cancels a running import: what it applied stays, the rest is not done.",
        tags,
        security: bearer,
        parameters: [id],
        responses: {
          200: ok(
            "The run as it is now (`cancelled`, or how it had already ended).",
            "HistoryImport",
          ),
          401: unauthorized,
          404: notFound,
          500: internal,
        },
      },
    },
  };
}

// Compile-time: the schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _page: Same<z.output<typeof unmatchedPageSchema>, UnmatchedPage> = true;
