/** The list routes of the document: the watched list, its entries, and My List. */
import { catalogIdParam } from "@/lib/catalog/params.ts";
import { myListQuerySchema, watchedQuerySchema } from "@/lib/library/entries/list_query.ts";
import { entryPatchSchema, watchedPostSchema } from "@/lib/library/entries/watched_payload.ts";
import { writePayloadSchema } from "@/lib/library/entries/write_payload.ts";
import { jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { internal, ok, problem, type ResponseObject, unauthorized } from "../responses.ts";

const bearer = [{ bearerAuth: [] }];

const writeBody = {
  required: true,
  description: "The flat `{catalogId}` or nested `{movie: {catalogId}}` form; at most 16 KiB.",
  content: { "application/json": { schema: jsonSchemaOf(writePayloadSchema, "input") } },
};

const badWrite = problem(
  "Not JSON, over 16 KiB, no catalogId (`invalid_body`), or catalogId not an integer " +
    "from 1 to 2147483647 (`invalid_catalog_id`); on POST, My List already holds 10,000 " +
    "films (`list_full`).",
);

const badHistory = "a rating not an integer 1-10 (`invalid_rating`), a watchedOn not a real " +
  "date from 1874-01-01 to tomorrow UTC (`invalid_date`), a note over 2,000 characters " +
  "(`invalid_note`); nothing is stored";

/** What differs between the two list routes. */
interface ListRoute {
  listName: string;
  write: "WatchedWrite" | "MyListWrite";
  list: "WatchedList" | "MovieList";
  query: Parameters<typeof queryParameters>[0];
  /** POST's body, when it takes more than the write payload. */
  postBody?: Record<string, unknown>;
  postBad?: ResponseObject;
  postConflict?: ResponseObject;
}

/** The operations of GET/POST/DELETE on a list route. */
function listOperations(route: ListRoute) {
  const writeResponses = (
    summary: string,
    options: { body?: unknown; bad?: ResponseObject; extra?: Record<string, ResponseObject> },
  ) => ({
    summary,
    tags: ["entries"],
    security: bearer,
    requestBody: options.body ?? writeBody,
    responses: {
      200: ok("Done.", route.write),
      400: options.bad ?? badWrite,
      401: unauthorized,
      ...options.extra,
      500: internal,
    },
  });
  return {
    get: {
      summary: `The user's ${route.listName} as movie cards, in list order unless sorted.`,
      tags: ["entries"],
      security: bearer,
      parameters: queryParameters(route.query),
      responses: {
        200: ok("The cards.", route.list),
        400: problem(
          "A query value the list does not take (`invalid_query`: also a limit outside 1-500 " +
            "or a cursor this list and sort did not give), or available=mine " +
            "without services chosen (`no_services`).",
        ),
        401: unauthorized,
        500: internal,
      },
    },
    post: writeResponses(`Adds a movie to the ${route.listName}.`, {
      body: route.postBody,
      bad: route.postBad,
      extra: route.postConflict ? { 409: route.postConflict } : {},
    }),
    delete: writeResponses(`Removes a movie from the ${route.listName}.`, {}),
  };
}

const catalogIdPath = [pathParameter("catalogId", catalogIdParam)];
const badEntryId = "catalogId not an integer from 1 to 2147483647 (`invalid_catalog_id`)";

/** GET/PATCH /api/watched/{catalogId}: one entry's rating, date and note. */
function entryOperations() {
  const common = { tags: ["entries"], security: bearer, parameters: catalogIdPath };
  const notWatched = problem("The movie is not in the user's watched list (`not_watched`).");
  return {
    get: {
      ...common,
      summary: "A watched entry: rating, watch date, note and when it was added.",
      responses: {
        200: ok("The entry.", "EntryResult"),
        400: problem(`${badEntryId}.`),
        401: unauthorized,
        404: notWatched,
        500: internal,
      },
    },
    patch: {
      ...common,
      summary: "Changes the fields named (null clears one); the others stay.",
      requestBody: {
        required: true,
        description: "At least one of rating, watchedOn, note; no other key; at most 16 KiB.",
        content: { "application/json": { schema: jsonSchemaOf(entryPatchSchema, "input") } },
      },
      responses: {
        200: ok("The entry as stored.", "EntryResult"),
        400: problem(
          `${badEntryId}; not a JSON object, no field, or an unknown key (\`invalid_body\`); ` +
            `${badHistory}.`,
        ),
        401: unauthorized,
        404: notWatched,
        500: internal,
      },
    },
  };
}

/** The paths of /api/watched, /api/watched/{catalogId} and /api/mylist. */
export function entriesPaths(): Record<string, unknown> {
  return {
    "/api/watched": listOperations({
      listName: "watched list",
      write: "WatchedWrite",
      list: "WatchedList",
      query: watchedQuerySchema,
      postBody: {
        required: true,
        description: "The flat `{catalogId}` or nested `{movie: {catalogId}}` form, with " +
          "optional rating, watchedOn, note beside it: without them a repeated add changes " +
          "nothing, with them the entry is updated; at most 16 KiB.",
        content: { "application/json": { schema: jsonSchemaOf(watchedPostSchema, "input") } },
      },
      postBad: problem(
        "Not JSON, over 16 KiB, no catalogId (`invalid_body`), catalogId not an integer from 1 " +
          `to 2147483647 (\`invalid_catalog_id\`); ${badHistory}; the watched list already ` +
          "holds 100,000 films (`list_full`).",
      ),
    }),
    "/api/watched/{catalogId}": entryOperations(),
    "/api/mylist": listOperations({
      listName: "My List",
      write: "MyListWrite",
      list: "MovieList",
      query: myListQuerySchema,
      postConflict: problem("The movie is already in the watched list (`already_watched`)."),
    }),
  };
}
