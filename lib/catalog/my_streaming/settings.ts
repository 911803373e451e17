/**
 * My services (docs/availability.md): the body of PUT /api/me/services and its rules. Every
 * field is optional; a region must be an assigned ISO 3166-1 alpha-2 code (400
 * `invalid_region`), providers at most 50 distinct positive TMDB provider ids (400
 * `invalid_providers`); anything else malformed, unknown keys included, is 400 `invalid_body`.
 */
import { z } from "zod";
import { regionCode } from "@/lib/core/regions.ts";
import { Problem } from "@/lib/core/problem.ts";

/** The most providers a user may choose. */
export const MAX_PROVIDERS = 50;

/** What a user has chosen, as stored. */
export interface ServiceSettings {
  region: string;
  providerIds: number[];
  onlyMine: boolean;
  emailAlerts: boolean;
}

/** A change of PUT /api/me/services: the fields named, checked. */
export type SettingsChange = Partial<ServiceSettings>;

/** A TMDB watch provider id (not a catalog id): an integer from 1 to 2147483647. */
export const providerIdSchema = z.number().int().min(1).max(2 ** 31 - 1);

/** PUT /api/me/services's body, as documented (the checks below give each fault its code). */
export const servicesPutSchema = z.strictObject({
  region: z.string().regex(/^[A-Za-z]{2}$/).optional()
    .meta({ description: "ISO 3166-1 alpha-2 country code, any case (`invalid_region`)." }),
  providers: z.array(providerIdSchema).optional()
    .meta({ description: `TMDB provider ids, at most ${MAX_PROVIDERS} distinct.` }),
  onlyMine: z.boolean().optional()
    .meta({ description: "Recommendations keep to what streams on my services." }),
  emailAlerts: z.boolean().optional()
    .meta({ description: "Mail a daily digest when a My List movie starts streaming." }),
});

function fault(code: string, detail: string): never {
  throw new Problem(400, code, detail);
}

/** Checks a parsed JSON body; each fault its own 400, nothing stored. */
export function parseSettingsChange(body: unknown): SettingsChange {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    fault("invalid_body", "The body must be a JSON object.");
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) =>
    !["region", "providers", "onlyMine", "emailAlerts"].includes(k)
  );
  if (unknown.length > 0) fault("invalid_body", `Unknown field: ${unknown[0]}.`);
  const change: SettingsChange = {};
  if ("region" in input) {
    const code = typeof input.region === "string" ? regionCode(input.region) : null;
    if (!code || !/^[A-Za-z]{2}$/.test(String(input.region))) {
      fault("invalid_region", "region must be an ISO 3166-1 alpha-2 country code, such as US.");
    }
    change.region = code;
  }
  if ("providers" in input) {
    const list = input.providers;
    if (!Array.isArray(list) || !list.every((id) => providerIdSchema.safeParse(id).success)) {
      fault("invalid_providers", "providers must be a list of positive integer provider ids.");
    }
    const distinct = [...new Set(list as number[])];
    if (distinct.length > MAX_PROVIDERS) {
      fault("invalid_providers", `At most ${MAX_PROVIDERS} providers may be chosen.`);
    }
    change.providerIds = distinct;
  }
  for (const key of ["onlyMine", "emailAlerts"] as const) {
    if (!(key in input)) continue;
    if (typeof input[key] !== "boolean") fault("invalid_body", `${key} must be true or false.`);
    change[key] = input[key] as boolean;
  }
  return change;
}
