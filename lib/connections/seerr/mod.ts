/** Other apps: the user's Seerr, its saved URL and sealed key, and the Request button's call. */
export { createSeerrService, SeerrBody, SeerrRequestBody, type SeerrService } from "./service.ts";
