/** Personal access tokens: made, listed and revoked by their owner; verified for the API. */
export { createPersonalTokenService, MAX_TOKENS, type PersonalTokenService } from "./service.ts";
export { isPersonalToken } from "./secret.ts";
