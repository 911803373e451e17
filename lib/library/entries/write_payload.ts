/**
 * The write payload of POST/DELETE on /api/watched and /api/mylist (docs/api.md): no
 * catalogId anywhere is `invalid_body`; a catalogId present but not an integer in 1..2^31-1 is
 * `invalid_catalog_id`.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import { Problem } from "@/lib/core/problem.ts";

const flat = z.object({ catalogId: z.unknown() });
const nested = z.object({ movie: z.object({ catalogId: z.unknown() }) });

/**
 * The write payload as documented (GET /api/openapi.json): exactly what `parseCatalogId`
 * accepts, which tests/openapi_test.ts checks body by body. The parser itself reads the loose
 * shapes above so it can tell a missing id (`invalid_body`) from a bad one (`invalid_catalog_id`).
 */
export const writePayloadSchema = z.union([
  z.looseObject({ catalogId }).meta({ title: "Flat" }),
  // A top-level catalogId, even a bad one, wins over movie.catalogId, so the nested form has none.
  z.looseObject({ catalogId: z.never().optional(), movie: z.looseObject({ catalogId }) })
    .meta({ title: "Nested" }),
]);

function invalidBody(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

/** Picks the catalog id out of the flat or nested form of a parsed body. */
export function parseCatalogId(body: unknown): number {
  let raw: unknown;
  const f = flat.safeParse(body);
  if (f.success && f.data.catalogId !== undefined) raw = f.data.catalogId;
  else {
    const n = nested.safeParse(body);
    if (n.success && n.data.movie.catalogId !== undefined) raw = n.data.movie.catalogId;
    else throw invalidBody("The body needs catalogId or movie.catalogId.");
  }
  const id = catalogId.safeParse(raw);
  if (!id.success) throw invalidCatalogId();
  return id.data;
}

/** The 400 of a catalog id that is not an integer from 1 to 2147483647. */
export function invalidCatalogId(): Problem {
  return new Problem(
    400,
    "invalid_catalog_id",
    "catalogId must be an integer from 1 to 2147483647.",
  );
}
