/** What the alerts section on /account says when the API refused a change, or failed. */
import { ApiError } from "./api.ts";
import type { FormMessage } from "./use_action.ts";

/** The API's own message, else a plain "try again". */
export function alertFailure(error: unknown): FormMessage {
  return {
    error: true,
    text: error instanceof ApiError ? error.message : "That did not work. Please try again.",
  };
}
