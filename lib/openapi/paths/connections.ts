/**
 * The document's media-server connections (docs/connections.md): the owner's webhook URL and
 * settings, the secret's rotation, the recent events, and the receivers under /hooks that
 * Plex, Jellyfin, Emby and scripts post to (authenticated by the secret in the path alone).
 */
import { z } from "zod";
import { ConnectionSettingsBody } from "@/lib/connections/webhooks/payload.ts";
import { SeerrBody, SeerrRequestBody } from "@/lib/connections/seerr/mod.ts";
import { type JsonSchema, jsonSchemaOf } from "../json_schema.ts";
import {
  internal,
  problem,
  type ResponseObject,
  retryAfterHeader,
  unauthorized,
} from "../responses.ts";

const settings = z.strictObject({
  webhookUrl: z.string().regex(/\/hooks\/[A-Za-z0-9_-]{22}$/).meta({
    description: "`$SITE_URL/hooks/<secret>` (128 random bits, base64url); each server adds " +
      "`/plex`, `/jellyfin`, `/emby` or `/generic`.",
  }),
  feedUrl: z.string().regex(/\/feeds\/[A-Za-z0-9_-]{22}\/mylist\.json$/).meta({
    description: "`$SITE_URL/feeds/<secret>/mylist.json`: My List for Radarr's Custom Lists " +
      "import (docs/trakt.md).",
  }),
  plexUsername: z.string().nullable().meta({
    description: "Only this Plex account's events count; null: any.",
  }),
  removeFromMyList: z.boolean(),
});

const event = z.strictObject({
  at: z.iso.datetime(),
  source: z.enum(["plex", "jellyfin", "emby", "generic"]),
  event: z.string().meta({ description: "The server's event name (`media.scrobble`, ...)." }),
  result: z.enum(["logged", "rated", "ignored", "unmatched", "invalid"]).meta({
    description: "`invalid`: the body could not be read (answered 400 or 413).",
  }),
  reason: z.string().nullable().meta({
    description: "Why: `not_a_movie`, `not_finished`, `unsupported_event`, `other_plex_account`, " +
      "`not_found`, `ambiguous`, `invalid_id`, `already_logged`, `unconfirmed` (logged under " +
      "the server's id while TMDB was down), `not_watched`, `too_many_viewings` (the diary's " +
      "1,000 viewings of the film or 200,000 in all), `list_full` (100,000 watched films), " +
      "`invalid_payload`, ...",
  }),
  title: z.string().nullable(),
  year: z.int().nullable(),
  catalogId: z.int().nullable(),
});

const answer = z.strictObject({
  result: z.enum(["logged", "rated", "ignored", "unmatched"]),
  reason: z.string().optional(),
});

/** The component schemas this file adds. */
export const connectionsComponents = {
  ConnectionSettings: settings,
  RotatedWebhook: z.strictObject({ webhookUrl: settings.shape.webhookUrl }),
  WebhookEventList: z.strictObject({
    events: z.array(event).meta({ description: "The last 50, newest first; no payloads." }),
  }),
  WebhookAnswer: answer,
  RotatedFeed: z.strictObject({ feedUrl: settings.shape.feedUrl }),
  MyListFeed: z.array(z.strictObject({
    id: z.int().min(1).meta({ description: "The TMDB id (the catalog id)." }),
    title: z.string(),
    year: z.int().nullable(),
  })).meta({ description: "My List in its order, as Radarr's Custom Lists import reads it." }),
  SeerrSettings: z.strictObject({
    url: z.string().nullable().meta({ description: "Seerr's base URL; null: none saved." }),
    savedAt: z.iso.datetime().nullable(),
  }),
  SeerrRequest: z.strictObject({
    requestId: z.int().nullable().meta({ description: "Seerr's request id." }),
    status: z.enum(["pending", "approved", "declined", "requested"]).meta({
      description: "Seerr's status of the new request (`requested`: Seerr did not say).",
    }),
  }),
} as const;

function json(description: string, name: keyof typeof connectionsComponents): ResponseObject {
  const schema: JsonSchema = { $ref: `#/components/schemas/${name}` };
  return { description, content: { "application/json": { schema } } };
}

const session = [{ bearerAuth: [] }];
const owner = { tags: ["connections"], security: session };
const own = { 401: unauthorized, 500: internal };

/** The paths this file adds. */
export function connectionsPaths(): Record<string, unknown> {
  return {
    "/api/me/connections": {
      get: {
        ...owner,
        summary: "The user's webhook URL (its secret made on first read) and settings.",
        responses: { 200: json("The settings.", "ConnectionSettings"), ...own },
      },
      put: {
        ...owner,
        summary: "Changes the Plex account filter or whether a logged movie leaves My List.",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: jsonSchemaOf(ConnectionSettingsBody, "input") },
          },
        },
        responses: {
          200: json("The settings.", "ConnectionSettings"),
          400: problem("A bad field or an unknown key (`invalid_body`)."),
          ...own,
        },
      },
    },
    "/api/me/connections/rotate": {
      post: {
        ...owner,
        summary: "A new webhook secret; the old URL answers 404 from now on.",
        responses: { 200: json("The new URL.", "RotatedWebhook"), ...own },
      },
    },
    "/api/me/connections/feed/rotate": {
      post: {
        ...owner,
        summary: "A new My List feed secret; the old feed URL answers 404 from now on.",
        responses: { 200: json("The new feed URL.", "RotatedFeed"), ...own },
      },
    },
    "/api/me/seerr": {
      get: {
        ...owner,
        summary: "The user's Seerr URL and when it was saved (never the API key).",
        responses: { 200: json("The Seerr settings.", "SeerrSettings"), ...own },
      },
      put: {
        ...owner,
        summary: "Saves the Seerr URL and API key (the key sealed, never shown again).",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: jsonSchemaOf(SeerrBody, "input") },
          },
        },
        responses: {
          200: json("The Seerr settings.", "SeerrSettings"),
          400: problem(
            "Not an http(s) URL, a blank or long key, or an unknown key (`invalid_body`).",
          ),
          ...own,
        },
      },
      delete: {
        ...owner,
        summary: "Forgets the Seerr URL and API key.",
        responses: { 204: { description: "Forgotten." }, ...own },
      },
    },
    "/api/me/seerr/requests": {
      post: {
        tags: ["connections"],
        security: session,
        summary: "The Request button: sends a film to the user's Seerr.",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: jsonSchemaOf(SeerrRequestBody, "input") },
          },
        },
        responses: {
          201: json("Seerr made the request.", "SeerrRequest"),
          400: problem("No positive integer `catalogId` (`invalid_body`)."),
          409: problem(
            "No Seerr saved, or its key no longer opens (`seerr_not_configured`); Seerr already " +
              "has a request for the film (`already_requested`).",
          ),
          422: problem(
            "Seerr refused the API key (`seerr_key_refused`) or the request (permission, quota, " +
              "blocklist: `seerr_refused`).",
          ),
          502: problem(
            "Seerr did not answer (`seerr_unreachable`) or answered something else " +
              "(`seerr_failed`).",
          ),
          ...own,
        },
      },
    },
    "/feeds/{secret}/mylist.json": {
      get: {
        tags: ["connections"],
        security: [],
        summary: "My List as Radarr's Custom Lists import reads it, by the feed's secret alone.",
        parameters: [{
          name: "secret",
          in: "path",
          required: true,
          schema: { type: "string" },
          description: "The secret of GET /api/me/connections' `feedUrl`.",
        }],
        responses: {
          200: json("My List.", "MyListFeed"),
          404: problem("No feed has this secret (`not_found`)."),
          429: problem(
            "More than 60 reads this minute of this feed, or more than 20 requests to unknown " +
              "secrets this minute from this client address (`rate_limited`).",
            retryAfterHeader,
          ),
          500: internal,
        },
      },
    },
    "/api/me/connections/events": {
      get: {
        ...owner,
        summary: "The last 50 events the webhooks received, with what was done with each.",
        responses: { 200: json("The events.", "WebhookEventList"), ...own },
      },
    },
    "/hooks/{secret}/{source}": {
      post: {
        tags: ["connections"],
        security: [],
        summary: "A media server's webhook: a finished movie becomes a diary viewing.",
        description: "`plex`: Plex's multipart form, JSON in `payload` (`media.scrobble`, " +
          "`media.rate`). `jellyfin`: the Jellyfin Webhook plugin's JSON (`PlaybackStop` played " +
          "to completion, `UserDataSaved` played). `emby`: Emby's webhook JSON, or a form with " +
          "it in `data` (`playback.stop` played to completion, `item.markplayed`). `generic`: " +
          '`{"tmdbId"?,"title"?,"year"?,"watchedAt"?,"rating"?}`. Every readable event answers ' +
          "200, an unsupported one `ignored`. At most 1 MiB and 60 a minute per secret; 20 " +
          "unknown secrets a minute per client address.",
        parameters: [
          {
            name: "secret",
            in: "path",
            required: true,
            schema: { type: "string" },
            description: "The secret of GET /api/me/connections' `webhookUrl`.",
          },
          {
            name: "source",
            in: "path",
            required: true,
            schema: { type: "string", enum: ["plex", "jellyfin", "emby", "generic"] },
          },
        ],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": { schema: { type: "object" } },
            "application/json": { schema: { type: "object" } },
          },
        },
        responses: {
          200: json("What was done with the event.", "WebhookAnswer"),
          400: problem("The body cannot be read (`invalid_payload`)."),
          404: problem("No webhook has this secret, or no such receiver (`not_found`)."),
          413: problem("The body is over 1 MiB (`payload_too_large`)."),
          429: problem(
            "More than 60 events this minute to this secret, or more than 20 requests to " +
              "unknown secrets this minute from this client address (`rate_limited`).",
            retryAfterHeader,
          ),
          500: internal,
        },
      },
    },
  };
}
