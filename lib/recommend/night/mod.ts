/** Movie nights: a shortlist for several people and a vote on their phones (docs/nights.md). */
export { buildNightService } from "./build.ts";
export type { CreatedNight, NightService } from "./service.ts";
export type { NightView } from "./view.ts";
export {
  nightCreateSchema,
  nightJoinSchema,
  nightVoteSchema,
  parseNightCreate,
  parseNightId,
  parseNightJoin,
  parseNightVote,
} from "./payloads.ts";
