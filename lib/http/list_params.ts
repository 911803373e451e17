/** The path parameters and bodies of the list routes, read once and parsed by lib/user_lists. */
import { catalogIdParam } from "../catalog/params.ts";
import { invalidCatalogId } from "../library/entries/write_payload.ts";
import { Problem } from "../core/problem.ts";
import { listIdParam } from "../library/lists/payloads.ts";
import type { Ctx } from "./app_env.ts";
import { readJson } from "./read_body.ts";

/** The list id of the path; one that cannot be an id names no list of the caller's: 404. */
export function listIdOf(c: Ctx): string {
  const id = listIdParam.safeParse(c.req.param("id"));
  if (!id.success) throw new Problem(404, "list_not_found", "No such list.");
  return id.data.toLowerCase();
}

/** The catalog id of an item's path. */
export function itemIdOf(c: Ctx): number {
  const id = catalogIdParam.safeParse(c.req.param("catalogId"));
  if (!id.success) throw invalidCatalogId();
  return id.data;
}

/** A JSON body (application/json, at most 16 KiB). */
export function readListBody(c: Ctx): Promise<unknown> {
  return readJson(c.req.raw, { requireJsonType: true });
}
