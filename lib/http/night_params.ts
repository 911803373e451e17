/** The path parameter and bodies of the /api/nights routes, read once and parsed by lib/recommend/night. */
import { parseNightId } from "../recommend/night/mod.ts";
import { Problem } from "../core/problem.ts";
import type { Ctx } from "./app_env.ts";
import { readJson } from "./read_body.ts";

/** The night of the path; one that cannot be an id names no night: 404. */
export function nightIdOf(c: Ctx): string {
  return parseNightId(c.req.param("id"));
}

/** A JSON body (application/json, at most 16 KiB); with `allowEmpty`, none at all is `undefined`. */
export function readNightBody(c: Ctx, options: { allowEmpty?: boolean } = {}): Promise<unknown> {
  const blank = options.allowEmpty && !c.req.header("content-type") &&
    (c.req.header("content-length") ?? "0") === "0";
  if (blank) return Promise.resolve(undefined);
  return readJson(c.req.raw, { requireJsonType: true, allowEmpty: options.allowEmpty });
}

/** `?reshuffle=1` (or `true`); `0`, `false` or absent is the first start. */
export function reshuffleOf(c: Ctx): boolean {
  const value = c.req.query("reshuffle");
  if (value === undefined || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new Problem(400, "invalid_query", "reshuffle takes 1 (or true) or 0 (or false).");
}
