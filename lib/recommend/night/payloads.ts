/** The bodies and path parameters of /api/nights, parsed with zod into the service's values. */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import { MAX_NAME_LENGTH } from "./limits.ts";

/** POST /api/nights. */
export const nightCreateSchema = z.strictObject({
  name: z.string().max(MAX_NAME_LENGTH).optional(),
  onlyMine: z.boolean().optional(),
});

/** POST /api/nights/:id/join. */
export const nightJoinSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** POST /api/nights/:id/votes. */
export const nightVoteSchema = z.strictObject({
  catalogId: catalogIdSchema,
  vote: z.enum(["yes", "no"]),
});

/** A night's id: a UUID. */
const nightIdSchema = z.uuid();

/** What a new night is made with. */
export interface NightFields {
  name: string;
  onlyMine: boolean;
}

/** A vote as the service takes it. */
export interface NightVote {
  catalogId: number;
  yes: boolean;
}

function invalid(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

/** Parses POST /api/nights's body (an absent body is an empty one). */
export function parseNightCreate(body: unknown): NightFields {
  const r = nightCreateSchema.safeParse(body ?? {});
  if (!r.success) {
    throw invalid(
      `A night takes name (at most ${MAX_NAME_LENGTH} characters) and onlyMine (true or false).`,
    );
  }
  return { name: (r.data.name ?? "").trim(), onlyMine: r.data.onlyMine ?? false };
}

/** Parses the join body: the token of the link. */
export function parseNightJoin(body: unknown): string {
  const r = nightJoinSchema.safeParse(body);
  if (!r.success) throw invalid('Joining takes {"token"}: the token of the night\'s link.');
  return r.data.token;
}

/** Parses a vote. */
export function parseNightVote(body: unknown): NightVote {
  const r = nightVoteSchema.safeParse(body);
  if (!r.success) {
    throw invalid('A vote takes {"catalogId": a film of the shortlist, "vote": "yes" or "no"}.');
  }
  return { catalogId: r.data.catalogId, yes: r.data.vote === "yes" };
}

/** The night of the path; an id that cannot be one names no night: 404. */
export function parseNightId(value: string | undefined): string {
  const r = nightIdSchema.safeParse(value);
  if (!r.success) throw nightNotFound();
  return r.data.toLowerCase();
}

/** The one 404 of a night: absent, or not the caller's (a non-member learns nothing). */
export function nightNotFound(): Problem {
  return new Problem(404, "night_not_found", "No such movie night.");
}
