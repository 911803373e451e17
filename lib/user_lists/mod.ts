/** Lists of a user's own, their share links and the public profile (docs/user_lists.md). */
export { createUserListsService } from "./service.ts";
export type { ItemKey, ListPage, UserListsService } from "./service.ts";
export type { ListCard, ListSummary } from "./sql.ts";
export type { SharedOwner, SharedPage } from "./shared.ts";
export { parsePage } from "./cursor.ts";
export type { PageRequest } from "./cursor.ts";
export {
  listIdParam,
  parseItemAdd,
  parseItemPatch,
  parseListCreate,
  parseListPatch,
} from "./payloads.ts";
export { createProfilesService } from "./profile.ts";
export type { Profile, ProfilesService, PublicList, PublicProfile } from "./profile.ts";
export { parseProfile } from "./profile_payload.ts";
