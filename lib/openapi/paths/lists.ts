/**
 * The document's parts for the lists of a user's own (docs/lists.md): CRUD, items, share
 * links, the shared read and the public profile, with their response schemas.
 */
import { z } from "zod";
import { yearStatsSchema } from "./diary.ts";
import {
  itemAddSchema,
  itemPatchSchema,
  listCreateSchema,
  listIdParam,
  listPatchSchema,
  pageQuerySchema,
  visibilitySchema,
} from "@/lib/library/lists/payloads.ts";
import { catalogIdParam } from "@/lib/catalog/params.ts";
import { handleSchema, profileBodySchema } from "@/lib/library/lists/profile_payload.ts";
import { movieCardSchema } from "../schemas.ts";
import { jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { internal, problem, retryAfterHeader, unauthorized } from "../responses.ts";

const listSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  visibility: visibilitySchema,
  ranked: z.boolean(),
  count: z.number().int().min(0),
  updatedAt: z.iso.datetime(),
  shareUrl: z.string().nullable().meta({ description: "The read-only link; null when private." }),
});

const listCardSchema = movieCardSchema.extend({
  position: z.number().int().min(1),
  note: z.string().nullable(),
});

const nextCursor = z.string().nullable().meta({ description: "null on the last page." });

const ownerSchema = z.strictObject({ displayName: z.string(), handle: z.string() }).nullable()
  .meta({ description: "The owner's profile name; null when they made no profile." });

const publicListSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  ranked: z.boolean(),
  count: z.number().int().min(0),
  updatedAt: z.iso.datetime(),
  shareUrl: z.string(),
});

const profileSchema = z.strictObject({
  handle: z.string(),
  displayName: z.string(),
  public: z.boolean(),
  showStats: z.boolean(),
  url: z.string().meta({ description: "The public page, $SITE_URL/u/<handle>." }),
});

/** The component schemas this file adds. */
export const listsComponents = {
  ListSummary: listSummarySchema,
  ListCard: listCardSchema,
  Lists: z.strictObject({ lists: z.array(listSummarySchema) }),
  ListResult: z.strictObject({ list: listSummarySchema }),
  ListPage: z.strictObject({
    list: listSummarySchema,
    movies: z.array(listCardSchema),
    nextCursor,
  }),
  ListItemResult: z.strictObject({ movie: listCardSchema }),
  ShareResult: z.strictObject({ shareUrl: z.string() }),
  SharedList: z.strictObject({
    list: z.strictObject({
      name: z.string(),
      description: z.string(),
      ranked: z.boolean(),
      count: z.number().int().min(0),
      owner: ownerSchema,
    }),
    movies: z.array(listCardSchema),
    nextCursor,
  }),
  Profile: profileSchema,
  PublicProfile: z.strictObject({
    handle: z.string(),
    displayName: z.string(),
    lists: z.array(publicListSchema),
    stats: yearStatsSchema.nullable().meta({
      description: "The diary's all-time figures (GET /api/stats); null unless shown.",
    }),
  }),
} as const;

function ok(description: string, name: keyof typeof listsComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];
const tags = ["lists"];
const body = (schema: z.ZodType) => ({
  required: true,
  content: { "application/json": { schema: jsonSchemaOf(schema, "input") } },
});
const id = pathParameter("id", listIdParam);
const catalogId = pathParameter("catalogId", catalogIdParam);
const noList = problem("No such list of the caller's (`list_not_found`); others' lists too.");
const badBody = (codes = "`invalid_body`") => problem(`A bad body (${codes}).`);
const limited = problem("Over 60 public reads a minute from this address (`rate_limited`).", {
  ...retryAfterHeader,
});
const owned = (summary: string, responses: Record<string, unknown>, extra = {}) => ({
  summary,
  tags,
  security: bearer,
  ...extra,
  responses: { ...responses, 401: unauthorized, 500: internal },
});

/** The paths this file adds. */
export function listsPaths(): Record<string, unknown> {
  return {
    "/api/lists": {
      get: owned("The user's own lists, most recently changed first.", {
        200: ok("The lists.", "Lists"),
      }),
      post: owned("Creates a list (private and unranked unless said).", {
        201: ok("Created.", "ListResult"),
        400: badBody("`invalid_body`, or 200 lists already: `too_many_lists`"),
      }, { requestBody: body(listCreateSchema) }),
    },
    "/api/lists/{id}": {
      get: owned("A list and a page of its cards in position order.", {
        200: ok("The list and the page.", "ListPage"),
        400: problem("A bad limit or cursor (`invalid_query`)."),
        404: noList,
      }, { parameters: [id, ...queryParameters(pageQuerySchema)] }),
      patch: owned("Changes the list's name, description, visibility or ranking.", {
        200: ok("The list.", "ListResult"),
        400: badBody(),
        404: noList,
      }, { parameters: [id], requestBody: body(listPatchSchema) }),
      delete: owned("Deletes the list with its items and link.", {
        204: { description: "Deleted." },
        404: noList,
      }, { parameters: [id] }),
    },
    "/api/lists/{id}/items": {
      post: owned("Adds a movie (appended unless a position is given).", {
        201: ok("The item's card.", "ListItemResult"),
        400: badBody("`invalid_body`, `invalid_catalog_id`, or 5,000 items: `list_full`"),
        404: noList,
        409: problem("The movie is in the list already (`already_in_list`)."),
      }, { parameters: [id], requestBody: body(itemAddSchema) }),
    },
    "/api/lists/{id}/items/{catalogId}": {
      patch: owned("Moves an item (the others renumbered) and/or changes its note.", {
        200: ok("The item's card.", "ListItemResult"),
        400: badBody("`invalid_body`, `invalid_catalog_id`"),
        404: problem("No such list (`list_not_found`) or movie in it (`not_in_list`)."),
      }, { parameters: [id, catalogId], requestBody: body(itemPatchSchema) }),
      delete: owned("Removes a movie (absent: nothing to do); the others close the gap.", {
        204: { description: "Removed." },
        400: problem("A bad catalog id (`invalid_catalog_id`)."),
        404: noList,
      }, { parameters: [id, catalogId] }),
    },
    "/api/lists/{id}/share": {
      post: owned("A new read-only link; the old one dies; a private list becomes unlisted.", {
        200: ok("The link.", "ShareResult"),
        404: noList,
      }, { parameters: [id] }),
      delete: owned("Drops the link; the list becomes private.", {
        204: { description: "Private again." },
        404: noList,
      }, { parameters: [id] }),
    },
    "/api/shared/{slug}": {
      get: {
        summary: "A shared list, for anyone with its link: no ids, no email.",
        tags,
        parameters: [
          { name: "slug", in: "path", required: true, schema: { type: "string" } },
          ...queryParameters(pageQuerySchema),
        ],
        responses: {
          200: ok("The list and a page of its cards.", "SharedList"),
          400: problem("A bad limit or cursor (`invalid_query`)."),
          404: problem("No list is shared by this link (`list_not_found`)."),
          429: limited,
          500: internal,
        },
      },
    },
    "/api/me/profile": {
      get: owned("The user's profile.", {
        200: ok("The profile.", "Profile"),
        404: problem("No profile made yet (`no_profile`)."),
      }),
      put: owned("Sets the profile (nothing is public unless `public`).", {
        200: ok("The profile.", "Profile"),
        400: badBody(),
        409: problem("Another user has the handle (`handle_taken`)."),
      }, { requestBody: body(profileBodySchema) }),
    },
    "/api/profiles/{handle}": {
      get: {
        summary: "A public profile: name, public lists, and figures when shown.",
        tags,
        parameters: [pathParameter("handle", handleSchema)],
        responses: {
          200: ok("The profile.", "PublicProfile"),
          404: problem("No public profile by this handle (`profile_not_found`)."),
          429: limited,
          500: internal,
        },
      },
    },
  };
}
