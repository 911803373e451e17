/** The lists: a user's watched list and My List, read as cards and written by id. */
export { createListsService } from "./service.ts";
export type {
  EntryCard,
  ListPage,
  ListsService,
  ListStatus,
  Prefetch,
  ReadOptions,
} from "./service.ts";
export type { MovieCard } from "./cards.ts";
export type { WatchedEntry } from "./entry.ts";
export type { EntryFields } from "./entry_fields.ts";
export type { ListQuery } from "./list_query.ts";
export type { WatchedStats } from "./stats.ts";
export { parseCatalogId, writePayloadSchema } from "./write_payload.ts";
