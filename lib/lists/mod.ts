/** The lists: a user's watched list and My List, read as cards and written by id. */
export { createListsService } from "./service.ts";
export type { ListsService, ListStatus, Prefetch, ReadOptions } from "./service.ts";
export type { MovieCard } from "./cards.ts";
export { parseCatalogId, writePayloadSchema } from "./write_payload.ts";
