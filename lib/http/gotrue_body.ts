/**
 * The JSON body of a GoTrue route: an unreadable one (not JSON, over 16 KiB) is GoTrue's 400
 * `bad_json`; a body that never arrived (408 `body_timeout`) or that its client abandoned (499)
 * stays what it is, as docs/faults.md promises for every route.
 */
import { GoTrueError } from "../identity/auth/gotrue_error.ts";
import { Problem } from "../core/problem.ts";
import { readJson } from "./read_body.ts";

/** Reads the body as `readJson` does (16 KiB, JSON), a bad body failing in GoTrue's shape. */
export async function readGoTrueBody(request: Request): Promise<unknown> {
  try {
    return await readJson(request);
  } catch (error) {
    if (error instanceof Problem && error.status === 400) {
      throw new GoTrueError(400, "bad_json", error.message);
    }
    throw error;
  }
}
