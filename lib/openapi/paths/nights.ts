/** The document's part for movie nights (docs/nights.md). */
import { z } from "zod";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import {
  type CreatedNight,
  nightCreateSchema,
  nightJoinSchema,
  type NightView,
  nightVoteSchema,
} from "@/lib/recommend/night/mod.ts";
import { jsonSchemaOf } from "../json_schema.ts";
import { internal, problem, retryAfterHeader, unauthorized } from "../responses.ts";
import { movieCardSchema } from "../schemas.ts";

const createdSchema = z.strictObject({
  id: z.uuid(),
  joinUrl: z.string().meta({ description: "`$SITE_URL/nights/<id>?token=<base64url>`." }),
  expiresAt: z.iso.datetime({ offset: true }),
}) satisfies z.ZodType<CreatedNight>;

const nightSchema = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  onlyMine: z.boolean(),
  members: z.array(z.strictObject({
    displayName: z.string(),
    voted: z.boolean().meta({ description: "Voted on every film of the shortlist." }),
    votes: z.number().int().min(0).meta({ description: "Films of the shortlist voted on." }),
    you: z.boolean(),
    creator: z.boolean(),
  })).meta({ description: "In the order they joined; nobody's yes or no." }),
  shortlist: z.array(
    movieCardSchema.omit({ availability: true }).extend({
      reasons: z.array(z.string()).meta({
        description: "Shared tastes only; never a member's film or rating.",
      }),
    }),
  ),
  match: catalogIdSchema.nullable().meta({
    description: "The first film every member said yes to.",
  }),
  closest: z.array(z.strictObject({ catalogId: catalogIdSchema, yes: z.number().int().min(1) }))
    .meta({
      description: "Empty until everyone has voted on every film with no match; then the films " +
        "with the most yeses.",
    }),
  expiresAt: z.iso.datetime({ offset: true }),
  started: z.boolean(),
  myVotes: z.array(z.strictObject({ catalogId: catalogIdSchema, vote: z.enum(["yes", "no"]) })),
}) satisfies z.ZodType<NightView>;

/** The component schemas this file adds. */
export const nightsComponents = { NightCreated: createdSchema, Night: nightSchema } as const;

function ok(description: string, name: keyof typeof nightsComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const tags = ["recommend"];
const body = (schema: z.ZodType, required = true) => ({
  required,
  content: { "application/json": { schema: jsonSchemaOf(schema, "input") } },
});
const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const noNight = problem("No such night, or the caller is not a member (`night_not_found`).");
const ended = problem("The night has ended: nights last 24 hours (`night_expired`).");
const badBody = problem("A bad body (`invalid_body`).");
const member = (summary: string, responses: Record<string, unknown>, extra = {}) => ({
  summary,
  tags,
  security: [{ bearerAuth: [] }],
  parameters: [id],
  ...extra,
  responses: { ...responses, 401: unauthorized, 500: internal },
});

/** The paths this file adds. */
export function nightsPaths(): Record<string, unknown> {
  return {
    "/api/nights": {
      post: {
        summary: "Starts a movie night: its id and the join link (24 hours, up to 8 members).",
        tags,
        security: [{ bearerAuth: [] }],
        requestBody: body(nightCreateSchema, false),
        responses: {
          201: ok("The night.", "NightCreated"),
          400: badBody,
          401: unauthorized,
          409: problem("10 nights of the user's are open already (`too_many_nights`)."),
          500: internal,
        },
      },
    },
    "/api/nights/{id}": {
      get: member("The night: members, shortlist, match, closest.", {
        200: ok("The night.", "Night"),
        404: noNight,
        410: ended,
      }),
      delete: member("The creator deletes the night.", {
        204: { description: "Deleted." },
        403: problem("Only the creator may (`not_night_creator`)."),
        404: noNight,
        410: ended,
      }),
    },
    "/api/nights/{id}/join": {
      post: member("Joins by the link's token; joining again changes nothing.", {
        200: ok("The night.", "Night"),
        400: badBody,
        404: problem("No such night, or a wrong token (`night_not_found`)."),
        409: problem("The night has 8 members (`night_full`)."),
        410: ended,
      }, { requestBody: body(nightJoinSchema) }),
    },
    "/api/nights/{id}/members/me": {
      delete: member("Leaves the night (a creator hands it to the next member).", {
        204: { description: "Left." },
        404: noNight,
        410: ended,
      }),
    },
    "/api/nights/{id}/start": {
      post: member(
        "The creator makes the shortlist (again with reshuffle=1) and the vote starts.",
        {
          200: ok("The night.", "Night"),
          400: problem("A bad reshuffle (`invalid_query`)."),
          403: problem("Only the creator may (`not_night_creator`)."),
          404: noNight,
          410: ended,
        },
        {
          parameters: [id, {
            name: "reshuffle",
            in: "query",
            required: false,
            schema: { type: "string", enum: ["0", "1", "true", "false"] },
          }],
        },
      ),
    },
    "/api/nights/{id}/votes": {
      post: member("A member's yes or no on a film of the shortlist; after the match, nothing.", {
        200: ok("The night.", "Night"),
        400: problem(
          "A bad body (`invalid_body`), or a film not on the list (`not_on_shortlist`).",
        ),
        404: noNight,
        409: problem("The vote has not started (`night_not_started`)."),
        410: ended,
      }, { requestBody: body(nightVoteSchema) }),
    },
    "/api/nights/{id}/events": {
      get: member("The night's events as a text/event-stream: member, vote, match, start, end.", {
        200: {
          description: "Events until the night ends; a comment every 25 s.",
          content: { "text/event-stream": { schema: { type: "string" } } },
        },
        404: noNight,
        410: ended,
        429: problem("Too many streams of this night or server (`too_many_streams`).", {
          ...retryAfterHeader,
        }),
      }),
    },
  };
}
