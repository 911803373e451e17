/** The typed bodies of the routes that take one: read once, parsed by the service's rules. */
import { parseDeleteConfirmation } from "../identity/auth/delete_account.ts";
import { parseImportBody } from "../catalog/import/body.ts";
import { Problem } from "../core/problem.ts";
import { parseCatalogId } from "../library/entries/write_payload.ts";
import { readJson } from "./read_body.ts";

/** The catalog id of a list write (JSON only; `invalid_body` or `invalid_catalog_id` on a fault). */
export async function readWritePayload(request: Request): Promise<number> {
  return parseCatalogId(await readJson(request, { requireJsonType: true }));
}

/** The pages of an admin import: an empty body, or JSON `{"pages": 1-25}`. */
export async function readImportBody(request: Request): Promise<{ pages: number }> {
  return parseImportBody(await readJson(request, { allowEmpty: true }));
}

/**
 * The confirmation of DELETE /api/account; an unreadable body is `confirmation_required` too,
 * but a body that never arrived keeps its own answer (408 `body_timeout`, 499).
 */
export async function readDeleteConfirmation(request: Request): Promise<void> {
  let value: unknown;
  try {
    value = await readJson(request, { allowEmpty: true });
  } catch (error) {
    if (!(error instanceof Problem) || error.code !== "invalid_body") throw error;
    return parseDeleteConfirmation({ unreadable: error.message });
  }
  parseDeleteConfirmation({ value });
}
