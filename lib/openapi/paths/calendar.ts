/** The document's part for the release calendar (docs/calendar.md). */
import { z } from "zod";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import {
  type Calendar,
  CALENDAR_TYPES,
  calendarQuerySchema,
  MAX_SPAN_DAYS,
} from "@/lib/library/calendar/mod.ts";
import { queryParameters } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

const region = z.string().regex(/^[A-Z]{2}$/);

/** GET /api/calendar. */
const calendarSchema = z.strictObject({
  region: region.meta({ description: "The user's region (My services), or the server's." }),
  events: z.array(z.strictObject({
    date: z.iso.date(),
    type: z.enum(CALENDAR_TYPES),
    catalogId: catalogIdSchema,
    title: z.string(),
    year: z.number().int().nullable(),
    poster: z.string().nullable().meta({ description: "Full image URL; null without one." }),
    note: z.string().meta({ description: "TMDB's note on the release; empty when none." }),
    certification: z.string().meta({ description: "Empty when none." }),
    region: region.optional().meta({
      description: "Only when the user's region has no date of this type: the region of the " +
        "earliest one anywhere.",
    }),
  })).meta({ description: "By date, then title." }),
}) satisfies z.ZodType<Calendar>;

/** The component schemas this file adds. */
export const calendarComponents = { Calendar: calendarSchema } as const;

/** The paths this file adds. */
export function calendarPaths(): Record<string, unknown> {
  return {
    "/api/calendar": {
      get: {
        summary: "Release dates of my films by day (premiere, theatrical, digital, physical, tv).",
        tags: ["entries"],
        security: [{ bearerAuth: [] }],
        parameters: queryParameters(calendarQuerySchema),
        responses: {
          200: {
            description: "The region and the events.",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/Calendar" } },
            },
          },
          400: problem(
            "A date that is not a real YYYY-MM-DD day, from after to, more than " +
              `${MAX_SPAN_DAYS} days, an unknown type, list or parameter (\`invalid_query\`).`,
          ),
          401: unauthorized,
          500: internal,
        },
      },
    },
  };
}
