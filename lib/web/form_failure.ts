/** What a form says when the API refused its change (its own words), or failed. */
import { ApiError } from "./api.ts";
import type { FormMessage } from "./use_action.ts";

/** The API's own message, else a plain "try again". */
export function formFailure(error: unknown): FormMessage {
  return {
    error: true,
    text: error instanceof ApiError ? error.message : "That did not work. Please try again.",
  };
}
