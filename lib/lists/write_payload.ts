/** The write payload of POST/DELETE on /api/watched and /api/mylist (contract section 6). */
import { z } from "zod";
import { readCappedBody } from "../http/read_body.ts";
import { Problem } from "../problem.ts";

const MAX_CATALOG_ID = 2 ** 31 - 1;
const catalogId = z.number().int().min(1).max(MAX_CATALOG_ID);
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

/**
 * Reads the catalog id of a write. Body-level faults (wrong content type, too large, not JSON,
 * no catalogId anywhere) are `invalid_body`; a catalogId present but not an integer in
 * 1..2^31-1 is `invalid_catalog_id`.
 */
export async function readWritePayload(req: Request): Promise<number> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw invalidBody("The body must be application/json.");
  }
  const bytes = await readCappedBody(req);
  if (!bytes) throw invalidBody("The body is larger than 16 KiB.");
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw invalidBody("The body is not valid JSON.");
  }
  return parseCatalogId(body);
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
  if (!id.success) {
    throw new Problem(
      400,
      "invalid_catalog_id",
      "catalogId must be an integer from 1 to 2147483647.",
    );
  }
  return id.data;
}
