/** Lists of a user's own, their share links and the public profile (docs/lists.md). */
export { createListsService } from "./service.ts";
export type { ListPage, ListsService } from "./service.ts";
export type { ListSummary } from "./sql.ts";
export type { SharedPage } from "./shared.ts";
export { type PageRequest, parsePage } from "./cursor.ts";
export { parseItemAdd, parseItemPatch, parseListCreate, parseListPatch } from "./payloads.ts";
export { createProfilesService } from "./profile.ts";
export type { ProfilesService, PublicProfile } from "./profile.ts";
export { parseProfile } from "./profile_payload.ts";
