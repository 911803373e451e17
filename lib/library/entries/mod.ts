/** The lists: a user's watched list and My List, read as cards and written by id. */
export { createEntriesService } from "./service.ts";
export type { EntriesService, ListPage, ListStatus } from "./service.ts";
export type { ListQuery } from "./list_query.ts";
export type { WatchedStats } from "./stats.ts";
