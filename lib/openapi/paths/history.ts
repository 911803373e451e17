/** The history routes of the document: import a file, follow its run, export the lists. */
import { exportQuerySchema } from "@/lib/library/history/export/export_file.ts";
import { queryParameters } from "../json_schema.ts";
import { internal, ok, problem, unauthorized } from "../responses.ts";

const bearer = [{ bearerAuth: [] }];
const tags = ["history"];

const uploadBody = {
  required: true,
  description: "The export file, at most 20 MiB: as multipart field `file`, or as the raw " +
    "body. Its format is told from the content: a Letterboxd export ZIP or one of its CSVs, " +
    "a Trakt JSON export, an IMDb ratings or list CSV, or this service's own export.",
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
      },
    },
    "application/octet-stream": { schema: { type: "string", contentMediaType: "*/*" } },
  },
};

/** The paths of /api/import, /api/import/{id} and /api/export. */
export function historyPaths(): Record<string, unknown> {
  return {
    "/api/import": {
      get: {
        summary: "The user's history import runs, newest first (at most 50).",
        tags,
        security: bearer,
        responses: {
          200: ok("The runs.", "HistoryImports"),
          401: unauthorized,
          500: internal,
        },
      },
      post: {
        summary: "Starts importing a history file in the background.",
        tags,
        security: bearer,
        requestBody: uploadBody,
        responses: {
          202: ok("Started; follow it at /api/import/{importId}.", "HistoryImportStarted"),
          400: problem(
            "No file or an empty one (`invalid_body`), a file in no known format " +
              "(`unknown_format`), a corrupt file or an archive too large unpacked (`invalid_file`), " +
              "more than 500,000 rows (`too_many_rows`).",
          ),
          401: unauthorized,
          409: problem("An import of this user's is running (`import_running`)."),
          413: problem("The file is over 20 MiB (`file_too_large`)."),
          500: internal,
          503: problem(
            "The run could not be claimed; the file not read within 60 s; the server already " +
              "taking in five uploads (refused before the body is read), or this one waiting " +
              "120 s for its turn to be read; try again (`import_unavailable`, with " +
              "`Retry-After: 30` in the last three).",
          ),
        },
      },
    },
    "/api/import/{id}": {
      get: {
        summary: "One of the user's import runs: status, counts, progress, the first 100 " +
          "unmatched films.",
        tags,
        security: bearer,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          200: ok("The run.", "HistoryImport"),
          401: unauthorized,
          404: problem("No such run of this user's (`not_found`); others' runs are 404 too."),
          500: internal,
        },
      },
    },
    "/api/export": {
      get: {
        summary: "The user's watched list, My List and diary, as JSON or one of them as CSV.",
        tags,
        security: bearer,
        parameters: queryParameters(exportQuerySchema),
        responses: {
          200: {
            description: "JSON by default; with format=csv, the list named by `list` as the " +
              "CSV Letterboxd's importer reads (tmdbID,Title,Year,Rating10,WatchedDate,Review; " +
              "RFC 4180, UTF-8); list=diary gives one row per viewing " +
              "(tmdbID,Title,Year,WatchedDate,Rating10,Rewatch,Review).",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/HistoryExport" } },
              "text/csv": { schema: { type: "string" } },
            },
          },
          400: problem("An unknown parameter or value, or csv without list (`invalid_query`)."),
          401: unauthorized,
          404: problem(
            "list=list with an id that is not one of the user's lists (`list_not_found`).",
          ),
          500: internal,
        },
      },
    },
  };
}
