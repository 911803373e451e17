/** The JSON body of a GoTrue route: an unreadable one is GoTrue's 400 `bad_json`, whatever why. */
import { GoTrueError } from "../auth/gotrue_error.ts";
import { Problem } from "../problem.ts";
import { readJson } from "./read_body.ts";

/** Reads the body as `readJson` does (16 KiB, JSON), failing in GoTrue's shape. */
export async function readGoTrueBody(request: Request): Promise<unknown> {
  try {
    return await readJson(request);
  } catch (error) {
    if (error instanceof Problem) throw new GoTrueError(400, "bad_json", error.message);
    throw error;
  }
}
